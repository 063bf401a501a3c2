/** SDK client settings for a request signed as `principal` (the rehearsal's access key = role logical id). */
export function signedAs(principal: string, endpoint: string) {
  return {
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: principal, secretAccessKey: 'rehearsal' },
    maxAttempts: 1,
  };
}
