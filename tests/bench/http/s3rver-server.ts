/**
 * s3rver (the npm package, a devDependency) as its own process, so it has an event loop of its
 * own like the other servers: `node --import tsx s3rver-server.ts DIR`; prints {"port":N}.
 * It accepts the access key S3RVER with the secret S3RVER.
 */
import S3rver from 's3rver';

const directory = process.argv[2];
if (!directory) throw new Error('usage: s3rver-server.ts DIR');
const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
const { port } = (await server.run()) as { port: number };
process.stdout.write(`${JSON.stringify({ port })}\n`);
