/** The onair console: a hash-routed single page (works from any S3 path), one page per view. */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { getToken, loadConfig, message } from './api';
import { AutoabrPage } from './autoabr-page';
import { ChannelPage } from './channel-page';
import { ChannelsPage } from './channels-page';
import { TokenPage } from './token-page';

const route = () => location.hash.replace(/^#\/?/, '');

function App() {
  const [path, setPath] = useState(route());
  const [token, setTokenState] = useState(getToken());
  useEffect(() => {
    const onHash = () => setPath(route());
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    // A new view is announced by moving focus to its heading (screen readers, keyboard users).
    document.querySelector<HTMLElement>('main h2')?.focus();
  }, [path]);
  const [view, arg] = path.split('/');
  // The one page shown decides the one link marked current.
  const shown = !token || view === 'token' ? 'token' : view === 'autoabr' ? 'autoabr' : 'channels';
  const page =
    shown === 'token' ? (
      <TokenPage onToken={setTokenState} />
    ) : view === 'channel' && arg ? (
      // A new channel is a new page: nothing of the last one (player, as-run, forms) is shown for it.
      <ChannelPage
        key={path}
        kind={decodeURIComponent(arg)}
        id={decodeURIComponent(path.split('/')[2] ?? '')}
      />
    ) : shown === 'autoabr' ? (
      <AutoabrPage />
    ) : (
      <ChannelsPage />
    );
  const link = (href: string, label: string, page: typeof shown) => (
    <a href={href} aria-current={page === shown ? 'page' : undefined}>
      {label}
    </a>
  );
  return (
    <>
      <header>
        <h1>onair</h1>
        <nav aria-label="Main">
          {link('#/', 'Channels', 'channels')}
          {link('#/autoabr', 'AutoABR', 'autoabr')}
          {link('#/token', 'Token', 'token')}
          <a href="api/">API reference</a>
        </nav>
      </header>
      <main>{page}</main>
    </>
  );
}

loadConfig()
  .then(() => {
    const root = document.getElementById('app')!;
    root.textContent = ''; // the static "Loading" text is not preact's to diff against
    render(<App />, root);
  })
  .catch((err) => {
    document.getElementById('app')!.textContent =
      `The console could not load its configuration: ${message(err)}`;
  });
