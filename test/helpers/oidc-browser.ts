import assert from 'node:assert/strict';

/**
 * A browser played over HTTP for the sign-in through the OpenID Connect issuer (docs/oidc.md, "Console sign-in"):
 * redirects followed by hand, cookies kept by host name as browsers keep them (not by port: the service instances and
 * the test provider all run on 127.0.0.1, and a cookie set by one port goes to the others, as in a browser). Paths are
 * ignored: every cookie of a host goes to it, which only adds.
 */
export class CookieBrowser {
  private readonly jar = new Map<string, Map<string, string>>();

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jar.get(target.hostname) ?? new Map<string, string>();
    this.jar.set(target.hostname, jar);
    const cookies = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const headers = new Headers(init.headers);
    if (cookies) headers.set('cookie', cookies);
    const response = await fetch(target, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const gone = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, pair!.slice(eq + 1).trim());
    }
    return response;
  }

  /** The cookie `name` this browser holds for the host of `url`. */
  cookie(url: string, name: string): string | undefined {
    return this.jar.get(new URL(url).hostname)?.get(name);
  }

  /** Follows redirects from `url` until an answer that is not one; answers it and the URL it came from. */
  async follow(url: string, init: RequestInit = {}): Promise<{ response: Response; url: string }> {
    let response = await this.get(url, init);
    while (response.status >= 300 && response.status < 400) {
      url = new URL(response.headers.get('location')!, url).toString();
      await response.body?.cancel();
      response = await this.get(url);
    }
    return { response, url };
  }
}

/** The action URL of the provider page's form. */
function formAction(html: string, base: string): string {
  const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
  assert.ok(action, `no form on the provider's page: ${html.slice(0, 500)}`);
  return new URL(action.replaceAll('&amp;', '&'), base).toString();
}

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

/**
 * Begins a sign-in at `start`, signs in at the test provider's login page as `login` (any password) and consents at its
 * consent page; answers the callback URL (beginning with `callback`) the provider sends the browser back to, not yet visited.
 */
export async function throughProvider(browser: CookieBrowser, start: string, callback: string, login: string): Promise<string> {
  const { response: loginPage, url: loginUrl } = await browser.follow(start);
  assert.equal(loginPage.status, 200);
  const loginHtml = await loginPage.text();
  assert.match(loginHtml, /name="login"/, 'the provider shows its login page');
  const { response: consentPage, url: consentUrl } = await browser.follow(formAction(loginHtml, loginUrl), form({ prompt: 'login', login, password: 'any password' }));
  const consentHtml = await consentPage.text();
  assert.match(consentHtml, /name="prompt" value="consent"/, 'then its consent page');
  let response = await browser.get(formAction(consentHtml, consentUrl), form({ prompt: 'consent' }));
  let url = consentUrl;
  // Back through the provider's authorization endpoint to the callback, which is not followed here.
  for (;;) {
    assert.ok(response.status >= 300 && response.status < 400, `a redirect, not ${response.status}`);
    url = new URL(response.headers.get('location')!, url).toString();
    await response.body?.cancel();
    if (url.startsWith(callback)) return url;
    response = await browser.get(url);
  }
}
