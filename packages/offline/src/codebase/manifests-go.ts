/** go.mod: the Go version and the modules this code requires itself. */
import { type Dependency, dep, type Reader } from './manifest-read.ts';

/** go.mod. */
export const goMod: Reader = (path, content) => {
  const version = /^go\s+(\d+(?:\.\d+)*)\s*$/m.exec(content)?.[1];
  const dependencies: Dependency[] = [];
  // Both `require x v1` lines and `require ( … )` blocks; indirect requirements are someone
  // else's dependencies and say nothing about this code.
  const lines = content.split('\n');
  let inBlock = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (/^require\s*\($/.test(line)) inBlock = true;
    else if (inBlock && line === ')') inBlock = false;
    const spec = inBlock ? line : /^require\s+(.+)$/.exec(line)?.[1];
    const match = spec ? /^(\S+)\s+(v\S+)(.*)$/.exec(spec) : null;
    if (match && !/\/\/\s*indirect/.test(match[3]!))
      dependencies.push(dep('go', match[1]!, match[2], false));
  }
  return {
    path,
    ecosystem: 'go',
    dependencies,
    language: version ? { name: 'Go', version } : { name: 'Go' },
    test: 'go test ./...',
    entries: [],
  };
};
