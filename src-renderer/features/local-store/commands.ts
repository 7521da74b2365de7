// Ready-to-paste command lines for other tools pointed at the local store (POSIX shell quoting).

/** Quotes a word for sh/bash/zsh unless it is plainly safe. */
export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** rclone connection-string values with a comma, colon or quote are double-quoted (doubling inner quotes). */
function rcloneValue(value: string): string {
  return /[,:"'\s]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export interface S3Credentials {
  endpoint: string;
  accessKey: string;
  secretKey: string;
}

export function awsCommand(c: S3Credentials): string {
  return `AWS_ACCESS_KEY_ID=${shellQuote(c.accessKey)} AWS_SECRET_ACCESS_KEY=${shellQuote(c.secretKey)} aws --endpoint-url ${shellQuote(c.endpoint)} s3 ls`;
}

export function rcloneCommand(c: S3Credentials): string {
  const remote = `:s3,provider=Other,access_key_id=${rcloneValue(c.accessKey)},secret_access_key=${rcloneValue(c.secretKey)},endpoint=${rcloneValue(c.endpoint)}:`;
  return `rclone lsd ${shellQuote(remote)}`;
}

export interface SwiftCredentials {
  authUrl: string;
  user: string;
  key: string;
}

export function swiftCommand(c: SwiftCredentials): string {
  return `swift -A ${shellQuote(c.authUrl)} -U ${shellQuote(c.user)} -K ${shellQuote(c.key)} list`;
}
