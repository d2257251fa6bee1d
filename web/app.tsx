import { useEffect, useRef, useState } from 'preact/hooks';
import { Button, ErrorMessage, Link, Loading } from './components/ui.js';
import { describeError } from './lib/forms.js';
import { roleLabel } from './lib/messages.js';
import type { ScreenModule } from './lib/screen.js';
import { here, match, navigate } from './lib/router.js';
import {
  allowed,
  inSandbox,
  readsLiveMail,
  restoring,
  session,
  signOut,
  switchEnvironment,
  twoFactorPending,
} from './lib/session.js';
import { RESET_PASSWORD, SCREENS, SECURITY_PATH, SIGNED_OUT_SCREENS, type Screen } from './routes.js';
import Register from './screens/account/register.js';
import SignIn from './screens/account/sign-in.js';

const loaded = new Map<string, ScreenModule>();

/** The screen a path names, and its parameters. */
function resolve(path: string): { screen: Screen; params: Record<string, string> } | null {
  // Fixed paths before parameters: `/invoices/new` is not the invoice `new`.
  const ordered = [...SCREENS].sort((a, b) => Number(a.path.includes(':')) - Number(b.path.includes(':')));
  for (const screen of ordered) {
    const params = match(screen.path, path);
    if (params) return { screen, params };
  }
  return null;
}

function ScreenView(props: { screen: Screen; params: Record<string, string> }) {
  const { screen, params } = props;
  const [module, setModule] = useState<ScreenModule | undefined>(loaded.get(screen.path));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    document.title = `${screen.title} · Business Management`;
    if (loaded.has(screen.path)) {
      setModule(loaded.get(screen.path));
      return;
    }
    setModule(undefined);
    screen.load().then(
      (m) => {
        loaded.set(screen.path, m);
        setModule(m);
      },
      () => setError('This screen could not be loaded; reload the page.'),
    );
  }, [screen]);
  if (error) return <ErrorMessage message={error} />;
  if (!module) return <Loading />;
  const View = module.default;
  return <View params={params} />;
}

/** The invitation screen, loaded on its own: few visits need it, so the first load stays small. */
function InvitationView() {
  const [View, setView] = useState<ScreenModule['default'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    import('./screens/account/invitation.js').then(
      (m) => setView(() => m.default),
      () => setError('This screen could not be loaded; reload the page.'),
    );
  }, []);
  if (error) return <ErrorMessage message={error} />;
  return View ? <View params={{}} /> : <Loading />;
}

function EnvironmentSwitch() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!allowed('sandbox.read') || twoFactorPending.value) return null;
  const target = inSandbox.value ? 'live' : 'sandbox';
  return (
    <div class="environment">
      <Button
        busy={busy}
        onClick={() => {
          setBusy(true);
          setError(null);
          switchEnvironment(target).then(
            () => setBusy(false),
            (err: unknown) => {
              setBusy(false);
              setError(describeError(err).message);
            },
          );
        }}
      >
        {inSandbox.value ? 'Leave the sandbox' : 'Open the sandbox'}
      </Button>
      {error ? (
        <span class="error" role="alert">
          {error}
        </span>
      ) : null}
    </div>
  );
}

function Navigation(props: { path: string; onNavigate: () => void }) {
  const groups = new Map<string, Screen[]>();
  for (const screen of SCREENS) {
    if (!screen.nav || !allowed(screen.permission)) continue;
    // Until the second factor the business requires is on, nothing else would answer.
    if (twoFactorPending.value && screen.path !== SECURITY_PATH) continue;
    // The sandbox's own tools only in the sandbox; its captured mail in live too while live mail is
    // captured (no SMTP_URL), for the roles that may read it.
    const liveMail = screen.path === '/sandbox/inbox' && readsLiveMail.value;
    if (screen.nav.group === 'Sandbox' && !inSandbox.value && !liveMail) continue;
    const group = screen.nav.group === 'Sandbox' && !inSandbox.value ? 'Mail' : screen.nav.group;
    const list = groups.get(group) ?? [];
    list.push(screen);
    groups.set(group, list);
  }
  const current = (screen: Screen) =>
    screen.path === '/'
      ? props.path === '/'
      : props.path === screen.path || props.path.startsWith(`${screen.path}/`);
  return (
    // A link to the screen already shown changes no path: the click itself closes the phone's menu.
    <nav
      id="navigation"
      class="sidebar"
      aria-label="Main"
      onClick={(e) => {
        if ((e.target as Element).closest('a')) props.onNavigate();
      }}
    >
      {[...groups].map(([group, screens]) => (
        <div key={group} class="nav-group">
          <h2>{group}</h2>
          <ul>
            {screens.map((screen) => (
              <li key={screen.path}>
                <a
                  href={`/app${screen.path === '/' ? '' : screen.path}`}
                  aria-current={current(screen) ? 'page' : undefined}
                >
                  {screen.nav!.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
      <div class="nav-group">
        <h2>Developers</h2>
        <ul>
          <li>
            <a href="/docs">API reference</a>
          </li>
        </ul>
      </div>
    </nav>
  );
}

function Shell() {
  const current = session.value!;
  const path = here.value.path;
  const found = resolve(path);
  const held = twoFactorPending.value && found?.screen.path !== SECURITY_PATH;
  useEffect(() => {
    if (held) navigate(SECURITY_PATH, { replace: true });
  }, [held]);
  // On a narrow screen the navigation and the account's controls fold behind a menu button (see
  // docs/decisions.md D197, "Phones"); on a wide one the button is hidden and this state unused.
  const [menuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  useEffect(() => setMenuOpen(false), [path]);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  return (
    <div class={`shell${inSandbox.value ? ' sandbox' : ''}${menuOpen ? ' menu-open' : ''}`}>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header role="banner">
        {inSandbox.value ? (
          <div class="sandbox-bar" role="note">
            Sandbox: test data only. Mail is captured, never sent, and the clock can be moved.
          </div>
        ) : null}
        <div class="topbar">
          <button
            ref={menuButton}
            type="button"
            class="button menu-button"
            aria-expanded={menuOpen ? 'true' : 'false'}
            aria-controls="navigation account"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            <span class="menu-icon" aria-hidden="true" />
            Menu
          </button>
          <Link to="/" class="brand">
            {current.info.businessName}
          </Link>
          <div id="account" class="account">
            <EnvironmentSwitch />
            <span class="who">
              {current.info.user?.email} · {roleLabel(current.info.role)}
            </span>
            <Button onClick={() => void signOut()}>Sign out</Button>
          </div>
        </div>
      </header>
      <div class="body">
        <Navigation path={path} onNavigate={() => setMenuOpen(false)} />
        <main id="main" tabIndex={-1}>
          {held ? (
            <Loading />
          ) : !found ? (
            <div>
              <h1>Not found</h1>
              <p>
                Nothing lives at this address. <Link to="/">Go to the overview</Link>.
              </p>
            </div>
          ) : !allowed(found.screen.permission) ? (
            <div>
              <h1>{found.screen.title}</h1>
              <p>
                Your role ({roleLabel(current.info.role)}) cannot open this screen: it needs the permission{' '}
                <code>{found.screen.permission}</code>. Ask an owner or admin of the business.
              </p>
            </div>
          ) : (
            <ScreenView
              key={`${current.environment}:${found.screen.path}`}
              screen={found.screen}
              params={found.params}
            />
          )}
        </main>
      </div>
    </div>
  );
}

export function App() {
  const path = here.value.path;
  // The reset link's page opens signed in or not: the link may be opened in a signed-in tab.
  if (path === RESET_PASSWORD.path) return <ScreenView screen={RESET_PASSWORD} params={{}} />;
  if (restoring.value) return <Loading label="Opening the dashboard…" />;
  // The invitation mail's link lands here, signed in or not (screens/invitation.tsx).
  if (path === '/invitation') return <InvitationView />;
  if (!session.value) {
    if (path === '/register') return <Register />;
    const open = SIGNED_OUT_SCREENS.find((screen) => screen.path === path);
    return open ? <ScreenView screen={open} params={{}} /> : <SignIn />;
  }
  return <Shell />;
}
