/**
 * The pdfservice console (docs/console.md): sign-in, folders, upload, viewer, actions and jobs. Every user string is rendered as a
 * Preact text node (never as HTML), and every request goes to the service's public API (api.ts).
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Actions } from './actions.tsx';
import { api, problemText, type SessionModel } from './api.ts';
import { Folders } from './folders.tsx';
import { Jobs } from './jobs.tsx';
import { useRoute } from './route.ts';
import { SignIn } from './signin.tsx';
import { Viewer } from './viewer.tsx';

function App() {
  // undefined: still asking who is signed in; null: nobody.
  const [session, setSession] = useState<SessionModel | null | undefined>(undefined);
  const [error, setError] = useState('');
  const route = useRoute();

  useEffect(() => {
    void api.GET('/pdfservice/v1/sessions/current').then(({ data, response }) => {
      if (data) setSession(data);
      else if (response.status === 401) setSession(null);
      else setError(`Cannot ask the service who is signed in (${response.status})`);
    }, (err: unknown) => setError(problemText(err)));
  }, []);

  const signOut = async () => {
    const { error: problem, response } = await api.DELETE('/pdfservice/v1/sessions/current');
    if (response.ok) {
      setSession(null);
      location.hash = '#/';
    } else setError(problemText(problem, response.status));
  };

  if (error) return <main><p role="alert">{error}</p></main>;
  if (session === undefined) return <main aria-busy="true"><p>Loading…</p></main>;
  if (session === null) return <SignIn onSignedIn={setSession} />;
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">pdfservice</a>
        <a href="#/jobs" aria-current={route.screen === 'jobs' ? 'page' : undefined}>Jobs</a>
        <p class="who">
          Signed in as <strong data-testid="username">{session.username}</strong>
          <span class="rights" aria-label="Your rights">{session.rights.map((right) => <span class="right" key={right}>{right}</span>)}</span>
        </p>
        <button type="button" onClick={() => void signOut()}>Sign out</button>
      </header>
      {route.screen === 'actions' ? <Actions key={route.doc} doc={route.doc} action={route.action} />
        : route.screen === 'jobs' ? <Jobs key={route.id ?? ''} id={route.id} />
        : route.screen === 'view'
        ? <Viewer key={route.doc} doc={route.doc} page={route.page} />
        : <Folders key={route.folder} folder={route.folder} canWrite={session.rights.includes('PUT')} canDelete={session.rights.includes('DELETE')} canPost={session.rights.includes('POST')} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
