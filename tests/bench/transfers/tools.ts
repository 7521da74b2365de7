/**
 * The command-line tools a user would pick instead, with their default settings: `rclone copy`
 * (Debian's 1.60: 4 transfers, 8 checkers, a HEAD after each S3 upload) and `aws s3 cp
 * --recursive` (awscli 2.9: 10 requests at once, 8 MiB multipart chunks). Each runs in a clean
 * environment with a HOME of its own; only what reaches the server is configured (endpoint,
 * keys, path-style addressing, region), nothing that tunes a transfer.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Target } from './targets.js';

export const RCLONE = '/usr/bin/rclone';
/** Debian's awscli 2.9; an `aws` earlier on PATH may be another version. */
export const AWS = '/usr/bin/aws';

export type Direction = 'up' | 'down';

export interface ToolRun {
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}

/** Neither tool reads anything of ours: no AWS_CA_BUNDLE (rclone refuses a bundle it cannot use), no proxies. */
function cleanEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: '/usr/bin:/bin', HOME: home, LANG: 'C.UTF-8', TMPDIR: home, ...extra };
}

/** `rclone copy` of a local folder to `bucket/prefix`, or back. */
export function rcloneRun(target: Target, home: string, bucket: string, prefix: string, localDir: string, direction: Direction): ToolRun {
  mkdirSync(home, { recursive: true });
  const config = join(home, 'rclone.conf');
  writeFileSync(config, '');
  const remote = `${target.rclone.remote}${bucket}/${prefix}`;
  const [from, to] = direction === 'up' ? [localDir, remote] : [remote, localDir];
  return { command: RCLONE, args: ['copy', from, to, '--config', config, ...target.rclone.flags], env: cleanEnv(home) };
}

/** `aws s3 cp --recursive` of a local folder to `s3://bucket/prefix/`, or back. */
export function awsRun(target: Target, home: string, bucket: string, prefix: string, localDir: string, direction: Direction): ToolRun {
  const dir = join(home, '.aws');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config'), '[default]\nregion = us-east-1\ns3 =\n  addressing_style = path\n');
  writeFileSync(join(dir, 'credentials'), `[default]\naws_access_key_id = ${target.s3.accessKey}\naws_secret_access_key = ${target.s3.secretKey}\n`);
  const remote = `s3://${bucket}/${prefix}/`;
  const [from, to] = direction === 'up' ? [localDir, remote] : [remote, localDir];
  return {
    command: AWS,
    args: ['s3', 'cp', '--recursive', from, to, '--endpoint-url', target.s3.endpoint],
    env: cleanEnv(home, {
      AWS_CONFIG_FILE: join(dir, 'config'),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, 'credentials'),
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_PAGER: '',
    }),
  };
}
