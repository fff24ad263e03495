import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, problemText, type Schemas } from './api.ts';
import { ConfirmButton, domId } from './controls.tsx';
import { formatTime } from './format.ts';

type User = Schemas['UserModel'];
type Right = User['rights'][number];
const RIGHTS: Right[] = ['GET', 'POST', 'PUT', 'DELETE', 'admin'];

/** Checkboxes for a user's rights; at least one is needed (the API refuses an empty list). */
function RightsChoice({ legend, value, onChange, idPrefix }: { legend: string; value: Right[]; onChange: (rights: Right[]) => void; idPrefix: string }) {
  return (
    <fieldset class="rights-choice">
      <legend>{legend}</legend>
      {RIGHTS.map((right) => (
        <label key={right} for={`${idPrefix}-${right}`}>
          <input id={`${idPrefix}-${right}`} type="checkbox" checked={value.includes(right)}
            onChange={(event) => onChange(event.currentTarget.checked ? RIGHTS.filter((r) => r === right || value.includes(r)) : value.filter((r) => r !== right))} />
          {right}
        </label>
      ))}
    </fieldset>
  );
}

/** One user's row: rights to change, a new password to set, delete. */
function UserRow({ user, self, onChanged, onError }: { user: User; self: boolean; onChanged: (message: string) => Promise<void>; onError: (message: string) => void }) {
  const [rights, setRights] = useState<Right[]>(user.rights);
  const [password, setPassword] = useState('');
  const id = domId('user', user.username);

  const patch = async (body: { rights?: Right[]; password?: string }, message: string) => {
    const { error, response } = await api.PATCH('/pdfservice/v1/users/{username}', { params: { path: { username: user.username } }, body });
    if (response.ok) await onChanged(message);
    else onError(problemText(error, response.status));
  };
  const remove = async () => {
    const { error, response } = await api.DELETE('/pdfservice/v1/users/{username}', { params: { path: { username: user.username } } });
    if (response.ok) await onChanged(`User ${user.username} deleted`);
    else onError(problemText(error, response.status));
  };

  return (
    <tr>
      <th scope="row">{user.username}{self && <span class="tag"> (you)</span>}</th>
      <td>
        <form class="inline" onSubmit={(event) => { event.preventDefault(); void patch({ rights }, `Rights of ${user.username} changed`); }}>
          <RightsChoice legend={`Rights of ${user.username}`} value={rights} onChange={setRights} idPrefix={id} />
          <button type="submit" class="small" disabled={rights.length === 0}>Save rights</button>
        </form>
      </td>
      <td>
        <form class="inline" onSubmit={(event) => { event.preventDefault(); void patch({ password }, `Password of ${user.username} set; their sessions ended`).then(() => setPassword('')); }}>
          <label for={`${id}-password`} class="visually-hidden">New password for {user.username}</label>
          <input id={`${id}-password`} type="password" autocomplete="new-password" minLength={8} value={password} required onInput={(event) => setPassword(event.currentTarget.value)} />
          <button type="submit" class="small">Set password</button>
        </form>
      </td>
      <td>{formatTime(user.createdAt)}</td>
      <td>{self ? '' : <ConfirmButton text="Delete" label={`Delete the user ${user.username}`} question={`Delete ${user.username}?`} confirmText="Yes, delete" onConfirm={remove} />}</td>
    </tr>
  );
}

/** User management for admins (GET/POST/PATCH/DELETE /users); the screen is not offered to anyone else. */
export function Users({ me }: { me: string }) {
  const [users, setUsers] = useState<User[] | null>(null);
  const [error, setError] = useState('');
  const [status, setStatus] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [rights, setRights] = useState<Right[]>(['GET']);

  const load = useCallback(async () => {
    const { data, error: problem, response } = await api.GET('/pdfservice/v1/users');
    if (data) setUsers(data.users);
    else setError(problemText(problem, response.status));
  }, []);
  useEffect(() => { void load(); }, [load]);

  const changed = async (message: string) => {
    await load();
    setError('');
    setStatus(message);
  };
  const create = async (event: Event) => {
    event.preventDefault();
    const { data, error: problem, response } = await api.POST('/pdfservice/v1/users', { body: { username: username.trim(), password, rights } });
    if (data) {
      setUsername('');
      setPassword('');
      setRights(['GET']);
      await changed(`User ${data.username} created`);
    } else setError(problemText(problem, response.status));
  };

  return (
    <main>
      <h1>Users</h1>
      {error && <p role="alert" class="error">{error}</p>}
      <p role="status" class="status">{status}</p>
      <form class="create-user" onSubmit={(event) => void create(event)}>
        <h2>New user</h2>
        <div class="inline">
          <label for="new-username">User name</label>
          <input id="new-username" autocomplete="off" value={username} required onInput={(event) => setUsername(event.currentTarget.value)} />
          <label for="new-password">Password</label>
          <input id="new-password" type="password" autocomplete="new-password" minLength={8} value={password} required onInput={(event) => setPassword(event.currentTarget.value)} />
        </div>
        <RightsChoice legend="Rights" value={rights} onChange={setRights} idPrefix="new-user" />
        <button type="submit" disabled={rights.length === 0}>Create user</button>
      </form>
      {users === null ? <p aria-busy="true">Loading…</p> : (
        <table class="entries">
          <caption class="visually-hidden">Users</caption>
          <thead><tr><th scope="col">User</th><th scope="col">Rights</th><th scope="col">Password</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
          <tbody>
            {users.map((user) => <UserRow key={`${user.username} ${user.updatedAt}`} user={user} self={user.username === me} onChanged={changed} onError={setError} />)}
          </tbody>
        </table>
      )}
    </main>
  );
}
