import { useCallback, useEffect, useState } from 'preact/hooks';
import type { paths } from '../../clients/typescript/src/generated/api.ts';
import { api, problemText, type SessionModel } from './api.ts';
import { ConfirmButton } from './controls.tsx';
import { formatTime } from './format.ts';

// TokensModel is described inline in the API description, so its type is reached through the route's answer.
type Token = paths['/pdfservice/v1/tokens']['get']['responses'][200]['content']['application/json']['tokens'][number];
type Right = NonNullable<Token['rights']>[number];

/** Lifetimes offered for a new token; the API takes any number of seconds up to ten years. */
const LIFETIMES: [string, number | undefined][] = [['Never expires', undefined], ['1 day', 86400], ['30 days', 30 * 86400], ['1 year', 366 * 86400]];

/** The secret of a token just created: shown this once (the service keeps only its hash), with a copy button. */
function NewSecret({ name, secret, onDone }: { name: string; secret: string; onDone: () => void }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied('Copied to the clipboard');
    } catch {
      // No clipboard (an insecure origin, or refused): the field is selected for Ctrl+C.
      (document.getElementById('new-token-secret') as HTMLInputElement | null)?.select();
      setCopied('Select and copy it by hand (Ctrl+C): the browser refused the clipboard');
    }
  };
  return (
    <section class="secret" aria-labelledby="secret-title">
      <h2 id="secret-title">The token “{name}”</h2>
      <p>Copy it now: it is shown only this once. Send it as <code>Authorization: Bearer …</code>.</p>
      <div class="inline">
        <label for="new-token-secret">Token</label>
        <input id="new-token-secret" data-testid="token-secret" readOnly value={secret} size={48} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>Copy</button>
        <button type="button" onClick={onDone}>Done, hide it</button>
      </div>
      <p role="status" class="status">{copied}</p>
    </section>
  );
}

/** The signed-in user, their rights, and their API tokens (GET/POST/DELETE /tokens; docs/api.md). */
export function Account({ session }: { session: SessionModel }) {
  const [tokens, setTokens] = useState<Token[] | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [name, setName] = useState('');
  const [lifetime, setLifetime] = useState(0);
  const [limit, setLimit] = useState<Right[]>([]);
  const [created, setCreated] = useState<{ name: string; secret: string } | null>(null);

  const load = useCallback(async () => {
    const { data, error: problem, response } = await api.GET('/pdfservice/v1/tokens');
    if (data) setTokens(data.tokens);
    else setError(problemText(problem, response.status));
  }, []);
  useEffect(() => { void load(); }, [load]);

  const create = async (event: Event) => {
    event.preventDefault();
    setError('');
    const expiresInSeconds = LIFETIMES[lifetime]?.[1];
    const { data, error: problem, response } = await api.POST('/pdfservice/v1/tokens', {
      body: { name: name.trim(), ...(expiresInSeconds ? { expiresInSeconds } : {}), ...(limit.length ? { rights: limit } : {}) },
    });
    if (data) {
      setCreated({ name: data.name, secret: data.token });
      setName('');
      setLimit([]);
      await load();
      setStatus(`Token “${data.name}” created`);
    } else setError(problemText(problem, response.status));
  };

  const revoke = async (token: Token) => {
    const { error: problem, response } = await api.DELETE('/pdfservice/v1/tokens/{id}', { params: { path: { id: token.id } } });
    if (response.ok) {
      await load();
      setStatus(`Token “${token.name}” revoked`);
    } else setError(problemText(problem, response.status));
  };

  const rights = session.rights as Right[];
  return (
    <main>
      <h1>Your account</h1>
      <p>Signed in as <strong>{session.username}</strong>, with the rights {rights.join(', ')}.</p>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status}</p>
      {created && <NewSecret name={created.name} secret={created.secret} onDone={() => setCreated(null)} />}
      <h2>API tokens</h2>
      <p class="note">A token acts as you for scripts (curl, the clients), with your rights or fewer. Revoking one stops it at once.</p>
      <form class="inline" onSubmit={(event) => void create(event)}>
        <label for="token-name">Token name</label>
        <input id="token-name" value={name} maxLength={100} required onInput={(event) => setName(event.currentTarget.value)} />
        <label for="token-lifetime">Expires</label>
        <select id="token-lifetime" value={String(lifetime)} onChange={(event) => setLifetime(Number(event.currentTarget.value))}>
          {LIFETIMES.map(([text], i) => <option key={text} value={String(i)}>{text}</option>)}
        </select>
        <fieldset class="rights-choice">
          <legend>Limit to (none checked: all your rights)</legend>
          {rights.map((right) => (
            <label key={right}>
              <input type="checkbox" checked={limit.includes(right)} onChange={(event) => setLimit(event.currentTarget.checked ? [...limit, right] : limit.filter((r) => r !== right))} />
              {right}
            </label>
          ))}
        </fieldset>
        <button type="submit">Create token</button>
      </form>
      {tokens === null ? <p aria-busy="true">Loading…</p> : (
        <table class="entries">
          <caption class="visually-hidden">Your API tokens</caption>
          <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Rights</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {tokens.length === 0 && <tr><td colSpan={7}>You have no API tokens.</td></tr>}
            {tokens.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td><code>{token.id}</code></td>
                <td>{token.rights ? token.rights.join(', ') : 'all yours'}</td>
                <td>{formatTime(token.createdAt)}</td>
                <td>{token.expiresAt ? formatTime(token.expiresAt) : 'never'}</td>
                <td>{token.lastUsedAt ? formatTime(token.lastUsedAt) : 'never'}</td>
                <td><ConfirmButton text="Revoke" label={`Revoke the token ${token.name}`} question={`Revoke “${token.name}”?`} confirmText="Yes, revoke" onConfirm={() => revoke(token)} /></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </main>
  );
}
