/**
 * package.json: a JavaScript or TypeScript project's dependencies, the Node.js version its
 * engines ask for, its entry files (`main`, `bin`) and whether it has a test script.
 */
import { dep, isRecord, type ManifestRead, type Reader, stringRecord } from './manifest-read.ts';

const dirname = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const inDir = (dir: string, file: string) =>
  (dir ? `${dir}/${file}` : file).replace(/\/\.\//g, '/').replace(/^\.\//, '');

const PLACEHOLDER_TEST = /no test specified/;

/** package.json. */
export const packageJson: Reader = (path, content) => {
  const json: unknown = JSON.parse(content);
  if (!isRecord(json)) return undefined;
  const dependencies = [
    ...stringRecord(json.dependencies).map(([n, v]) => dep('npm', n, v, false)),
    ...stringRecord(json.devDependencies).map(([n, v]) => dep('npm', n, v, true)),
    ...stringRecord(json.optionalDependencies).map(([n, v]) => dep('npm', n, v, false)),
  ];
  const scripts = isRecord(json.scripts) ? json.scripts : {};
  const engines = isRecord(json.engines) ? json.engines : {};
  const typescript = dependencies.find((d) => d.name === 'typescript');
  const bin = typeof json.bin === 'string' ? [json.bin] : stringRecord(json.bin).map(([, v]) => v);
  const main = typeof json.main === 'string' ? [json.main] : [];
  const out: ManifestRead = {
    path,
    ecosystem: 'npm',
    dependencies,
    runtime:
      typeof engines.node === 'string'
        ? { name: 'Node.js', version: engines.node }
        : { name: 'Node.js' },
    entries: [...main, ...bin].map((file) => inDir(dirname(path), file)),
  };
  if (typescript)
    out.language = {
      name: 'TypeScript',
      ...(typescript.version ? { version: typescript.version } : {}),
    };
  if (typeof scripts.test === 'string' && !PLACEHOLDER_TEST.test(scripts.test))
    out.test = 'npm test';
  return out;
};
