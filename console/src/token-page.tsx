/** Paste a token, or get a trial one (test stage: POST /token). Kept in this browser only. */
import { useState } from 'preact/hooks';
import { call, cfg, getToken, message, setToken } from './api';

export function TokenPage({ onToken }: { onToken: (token: string) => void }) {
  const [pasted, setPasted] = useState(getToken());
  const [company, setCompany] = useState('');
  const [email, setEmail] = useState('');
  const [error, setError] = useState('');
  const use = (token: string) => {
    setToken(token.trim());
    onToken(token.trim());
    location.hash = '#/';
  };
  const trial = async (e: Event) => {
    e.preventDefault();
    setError('');
    try {
      const t = await call<{ token: string }>(cfg().channelApi, '/token', {
        method: 'POST',
        body: { company, email },
      });
      use(t.token);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <>
      <section aria-labelledby="paste-title">
        <h2 id="paste-title" tabIndex={-1}>
          Your token
        </h2>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            use(pasted);
          }}
        >
          <label for="token">Token (x-jwt)</label>
          <textarea id="token" rows={3} value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} />
          <button type="submit">Use this token</button>{' '}
          <button type="button" class="secondary" onClick={() => use('')}>
            Forget it
          </button>
        </form>
      </section>
      {cfg().stage === 'test' && (
        <section aria-labelledby="trial-title">
          <h2 id="trial-title">Get a trial token</h2>
          <p class="hint">Test stage only: 3 channels, valid 30 days.</p>
          <form onSubmit={trial}>
            <label for="company">Company</label>
            <input id="company" required value={company} onInput={(e) => setCompany(e.currentTarget.value)} />
            <label for="email">Email</label>
            <input
              id="email"
              type="email"
              required
              value={email}
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
            <button type="submit">Get a trial token</button>
            {error && (
              <p role="alert" class="error">
                {error}
              </p>
            )}
          </form>
        </section>
      )}
    </>
  );
}
