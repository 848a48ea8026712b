/**
 * The words several writers share for what the answers and the stack decision settled
 * (facts/settled.ts): the database, the phone's store, the commands of the runtime, how people
 * sign in. A piece the conventions forbid is named neutrally; an answer the engine cannot
 * read is quoted as the team's words.
 */
import type { Facts } from '../facts/facts.ts';
import { databaseOf, settledOf } from '../facts/settled.ts';
import { type Inline, t } from '../text/nodes.ts';
import { listing } from '../text/words.ts';

/** The database's name as a local service (`docker compose up -d postgres`). */
export function databaseService(f: Facts): string {
  const name = settledOf(f).stack.database ?? '';
  if (/^PostgreSQL\b/.test(name) || name === '') return 'postgres';
  return /^(?:MySQL|MariaDB|MongoDB)\b/.test(name) ? name.split(' ')[0]!.toLowerCase() : 'db';
}

/** The phone's store as the documents name it: the stack's, else SQLite if allowed, else neutral. */
export function localStoreOf(f: Facts): string {
  const { stack } = settledOf(f);
  return stack.localStore ?? (stack.allows('SQLite') ? 'SQLite' : 'an on-device database');
}

/** The words of a sign-in method the engine reads in an answer. */
const METHODS = {
  sso: "through the organisation's identity provider, by single sign-on",
  password: 'with an email address and a password',
  'email-link': 'with an email address and a one-time link',
  social: 'with the sign-in provider the team named',
  none: 'without accounts',
} as const;

/**
 * How the product signs people in, as the answers settled it, or the assumption that chose
 * it: "signs people in through … (the team's answer: "Google Workspace SSO only")".
 *
 * @example
 * signsIn(f); // t`signs people in as A-2 chose`
 */
export function signsIn(f: Facts): Inline {
  const signIn = settledOf(f).answered.signIn;
  if (signIn === undefined)
    return t`signs people in as ${f.assumptions.find((a) => /sign in/i.test(a.fact))?.id ?? 'the assumptions'} chose`;
  if (signIn.method === undefined)
    return t`signs people in as the team answered ("${signIn.answer}")`;
  if (signIn.kept !== undefined)
    return t`signs people in as ${signIn.kept} requires, until a change request removes it (the team answered "${signIn.answer}")`;
  return t`signs people in ${METHODS[signIn.method]} (the team's answer: "${signIn.answer}")`;
}

/** Whether an answer settled how people sign in, with accounts. */
export function signsInAnswered(f: Facts): boolean {
  const signIn = settledOf(f).answered.signIn;
  return signIn !== undefined && signIn.method !== 'none';
}

/** What running the product locally takes, and the commands (or steps) of the stack. */
export interface LocalRun {
  needs: string;
  lines: string[];
}

/**
 * How to build and run a phone app that npm does not build: Gradle for Kotlin, Xcode for
 * Swift, both for an app on each phone, Flutter's own tool.
 */
function nativeRun(f: Facts): LocalRun | undefined {
  if (f.stack[0] === 'Flutter')
    return { needs: 'the Flutter SDK', lines: ['flutter pub get', 'flutter run', 'flutter test'] };
  const android = f.stack.some((tech) => /^(?:Kotlin|Jetpack Compose)\b/.test(tech));
  const ios = f.stack.some((tech) => /^(?:Swift|SwiftUI)\b/.test(tech));
  const xcode = `open ${f.name.replace(/\W/g, '')}.xcodeproj`;
  if (f.stack[0] === 'Swift') return { needs: 'Xcode', lines: [xcode] };
  const gradle = ['./gradlew assembleDebug', './gradlew installDebug', './gradlew test'];
  if (android && ios)
    return {
      needs: 'Android Studio and Xcode',
      lines: ['# the Android app', ...gradle, '# the iOS app', xcode],
    };
  return android ? { needs: 'Android Studio', lines: gradle } : undefined;
}

/** A web client the API's runtime does not run (React beside a Python API): its own commands. */
function clientRun(f: Facts): string[] {
  const { stack } = settledOf(f);
  const js = stack.tools === undefined || /^(?:node|bun)$/.test(stack.tools.bin);
  if (
    js ||
    !stack.allows('Node.js') ||
    !f.stack.some((tech) => /^(?:React|Next\.js|Vite)$/.test(tech))
  )
    return [];
  return ['npm install --prefix web', 'npm run dev --prefix web  # the web client'];
}

/**
 * How to run it locally with the stack as settled: the runtime's commands when the engine
 * knows them (Node.js, Bun, Python), a native app's build tools (Gradle, Xcode), otherwise the
 * steps as comments, naming no tool it did not choose.
 *
 * @example
 * localRun(f, ['STRIPE_TOKEN']).lines[0]; // 'npm install'
 */
export function localRun(f: Facts, env: readonly string[]): LocalRun {
  const { stack } = settledOf(f);
  const { tools } = stack;
  const runtime =
    stack.runtime === 'Node.js' || (stack.runtime === undefined && stack.allows('Node.js'))
      ? 'Node.js 22 or later'
      : (tools?.needs ?? stack.runtime ?? `the toolchain of ${listing(f.stack.slice(0, 2))}`);
  const exports = env.map((v) => `export ${v}=…`);
  if (f.type === 'mcp')
    return {
      needs: runtime,
      lines: tools
        ? [tools.install, ...(tools.build ? [tools.build] : []), ...exports, tools.inspect]
        : [
            '# install the dependencies and build',
            ...exports,
            '# start the server, then open it in the MCP Inspector',
          ],
    };
  if (f.type === 'mobile') {
    const native = nativeRun(f);
    if (native !== undefined) return native;
    const start = stack.allows('Expo') ? 'expo start' : 'react-native start';
    return {
      needs: runtime,
      lines: tools
        ? [tools.install, `${tools.exec} ${start}`]
        : ['# install the dependencies', `# ${start}`],
    };
  }
  const database = databaseOf(f, 'the database');
  const docker = stack.allows('Docker');
  const client = clientRun(f);
  return {
    needs: `${runtime}${client.length > 0 ? ', Node.js 22 for the web client' : ''}${docker ? ' and Docker' : ` and ${database} running locally`}`,
    lines: tools
      ? [
          tools.install,
          ...(docker ? [`docker compose up -d ${databaseService(f)}`] : []),
          tools.migrate,
          tools.dev,
          ...client,
        ]
      : [
          '# install the dependencies',
          `# start ${database}, run the migrations, then start the API and the web client`,
        ],
  };
}

/**
 * The assumption on how it is set up and signed in to (how people sign in, how an MCP server
 * is run), while no answer has closed it.
 *
 * @example
 * setupAssumption(f); // 'A-2'
 */
export function setupAssumption(f: Facts): string | undefined {
  const own = f.assumptions.find((a) => /\b(?:sign in|is run)\b/i.test(a.fact))?.id;
  return own ?? (settledOf(f).answered.signIn ? undefined : f.assumptions[1]?.id);
}
