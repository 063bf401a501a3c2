/**
 * ECS's own fetch of a task definition's `Secrets`: GetSecretValue as the task's execution role, through
 * the same endpoint (the recording proxy) as every other call, so IAM judges it. The request carries a
 * SigV4-shaped Authorization header naming the role as its access key (the recorder's principal); the
 * local stand-ins check no signatures.
 */
export async function fetchSecretAs(
  endpoint: string,
  secretId: string,
  principal: string,
  region: string,
): Promise<string> {
  const date = new Date().toISOString().slice(0, 10).replaceAll('-', '');
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.1',
      'x-amz-target': 'secretsmanager.GetSecretValue',
      authorization: `AWS4-HMAC-SHA256 Credential=${principal}/${date}/${region}/secretsmanager/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify({ SecretId: secretId }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { SecretString?: string; message?: string };
  if (!res.ok || body.SecretString === undefined)
    throw new Error(`GetSecretValue ${secretId}: ${res.status} ${body.message ?? ''}`);
  return body.SecretString;
}
