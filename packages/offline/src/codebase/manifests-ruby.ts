/**
 * Gemfile: gems (those in test or development groups as dev), the Ruby version and the test
 * runner.
 */
import { type Dependency, dep, type ManifestRead, type Reader } from './manifest-read.ts';

/** Bundler's Gemfile. */
export const gemfile: Reader = (path, content) => {
  const dependencies: Dependency[] = [];
  let devDepth = 0;
  let depth = 0;
  for (const raw of content.split('\n')) {
    const line = raw.replace(/#.*/, '').trim();
    if (/^group\b.*\bdo\b/.test(line)) {
      depth++;
      if (/:(?:test|development)\b/.test(line) && devDepth === 0) devDepth = depth;
      continue;
    }
    if (/\bdo(\s*\|[^|]*\|)?$/.test(line)) depth++;
    if (line === 'end') {
      if (depth === devDepth) devDepth = 0;
      depth = Math.max(0, depth - 1);
      continue;
    }
    const gem = /^gem\s+['"]([^'"]+)['"](?:\s*,\s*['"]([^'"]+)['"])?/.exec(line);
    if (gem) dependencies.push(dep('gem', gem[1]!, gem[2], devDepth > 0));
  }
  const ruby = /^\s*ruby\s+['"]([^'"]+)['"]/m.exec(content)?.[1];
  const has = (name: string) => dependencies.some((d) => d.name === name);
  const out: ManifestRead = {
    path,
    ecosystem: 'gem',
    dependencies,
    language: ruby ? { name: 'Ruby', version: ruby } : { name: 'Ruby' },
    entries: [],
  };
  if (has('rspec') || has('rspec-rails')) out.test = 'bundle exec rspec';
  else if (has('rails')) out.test = 'bin/rails test';
  else if (has('minitest')) out.test = 'bundle exec rake test';
  return out;
};
