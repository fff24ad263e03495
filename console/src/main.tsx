/**
 * The pdfservice console (docs/console.md): sign-in, folders, upload, viewer, actions and jobs, trash, versions,
 * account (API tokens) and users (admins). Every user string is rendered as a
 * Preact text node (never as HTML), and every request goes to the service's public API (api.ts).
 */
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { Actions } from './actions.tsx';
import { api, problemText, type SessionModel } from './api.ts';
import { Account } from './account.tsx';
import { Folders } from './folders.tsx';
import { Jobs } from './jobs.tsx';
import { useRoute } from './route.ts';
import { SignIn } from './signin.tsx';
import { Trash } from './trash.tsx';
import { Users } from './users.tsx';
import { Versions } from './versions.tsx';
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
  const can = (right: SessionModel['rights'][number]) => session.rights.includes(right);
  const isAdmin = can('admin');
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">pdfservice</a>
        <nav aria-label="Screens">
          <ul class="screens">
            <li><a href="#/" aria-current={route.screen === 'folders' ? 'page' : undefined}>Documents</a></li>
            <li><a href="#/jobs" aria-current={route.screen === 'jobs' ? 'page' : undefined}>Jobs</a></li>
            <li><a href="#/trash" aria-current={route.screen === 'trash' ? 'page' : undefined}>Trash</a></li>
            <li><a href="#/account" aria-current={route.screen === 'account' ? 'page' : undefined}>Account</a></li>
            {isAdmin && <li><a href="#/users" aria-current={route.screen === 'users' ? 'page' : undefined}>Users</a></li>}
          </ul>
        </nav>
        <p class="who">
          Signed in as <strong data-testid="username">{session.username}</strong>
          <span class="rights" aria-label="Your rights">{session.rights.map((right) => <span class="right" key={right}>{right}</span>)}</span>
        </p>
        <button type="button" onClick={() => void signOut()}>Sign out</button>
      </header>
      {route.screen === 'actions' ? <Actions key={route.doc} doc={route.doc} action={route.action} />
        : route.screen === 'jobs' ? <Jobs key={route.id ?? ''} id={route.id} />
        : route.screen === 'view' ? <Viewer key={`${route.doc} ${route.versionId ?? ''}`} doc={route.doc} page={route.page} versionId={route.versionId} />
        : route.screen === 'versions' ? <Versions key={route.doc} doc={route.doc} canEdit={can('PUT')} canRestore={can('POST')} />
        : route.screen === 'account' ? <Account session={session} />
        // Not offered to a non-admin (the link is not shown, and the API would answer 403 anyway).
        : route.screen === 'users' ? (isAdmin ? <Users me={session.username} /> : <main><h1>Users</h1><p role="alert">Only admins manage users.</p></main>)
        : route.screen === 'trash' ? <Trash canRestore={can('POST') && can('PUT')} canPurge={can('DELETE')} />
        : <Folders key={route.folder} folder={route.folder} canWrite={can('PUT')} canDelete={can('DELETE')} canPost={can('POST')} />}
    </>
  );
}

render(<App />, document.getElementById('app')!);
