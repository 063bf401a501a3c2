/** A trial token from a running channel API (`POST /token`, test stage), as a new user gets one. */
export async function trialToken(channelApi: string, email: string, company = 'Acme'): Promise<string> {
  const res = await fetch(`${channelApi}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ company, email }),
  });
  if (res.status !== 201) throw new Error(`POST /token answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}
