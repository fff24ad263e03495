import { useEffect, useState } from 'preact/hooks';
import { api, problemText, type SessionModel } from './api.ts';

export function SignIn({ onSignedIn }: { onSignedIn: (session: SessionModel) => void }) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // The issuer the service signs in through, when it has one (GET /sessions/oidc, public): a plain link, since the
  // sign-in is a series of navigations through the issuer's pages and back to the service (docs/oidc.md).
  const [issuer, setIssuer] = useState<{ name: string; start: string } | undefined>(undefined);
  useEffect(() => {
    void api.GET('/pdfservice/v1/sessions/oidc').then(({ data }) => {
      if (data?.enabled && data.name && data.start) setIssuer({ name: data.name, start: data.start });
    }, () => {});
  }, []);

  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setError('');
    try {
      const { data, error: problem, response } = await api.POST('/pdfservice/v1/sessions', {
        body: { username: String(form.get('username') ?? ''), password: String(form.get('password') ?? '') },
      });
      if (data) onSignedIn(data);
      else setError(problemText(problem, response.status));
    } catch (err) {
      setError(problemText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="signin">
      <h1>Sign in to pdfservice</h1>
      <form onSubmit={(event) => void submit(event)} aria-describedby={error ? 'signin-error' : undefined}>
        <label for="username">User name</label>
        <input id="username" name="username" autocomplete="username" required />
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required />
        <button type="submit" disabled={busy}>Sign in</button>
        {error && <p id="signin-error" role="alert" class="error">{error}</p>}
      </form>
      {issuer && <p class="signin-oidc"><a class="button" href={issuer.start}>Sign in with {issuer.name}</a></p>}
    </main>
  );
}
