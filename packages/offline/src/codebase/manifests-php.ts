/**
 * composer.json: PHP packages (not the platform's `php` and `ext-*`), the PHP version and how
 * the tests run.
 */
import { dep, isRecord, type ManifestRead, type Reader, stringRecord } from './manifest-read.ts';

/** composer.json. */
export const composer: Reader = (path, content) => {
  const json: unknown = JSON.parse(content);
  if (!isRecord(json)) return undefined;
  const platform = (name: string) => name === 'php' || name.startsWith('ext-');
  const dependencies = [
    ...stringRecord(json.require)
      .filter(([n]) => !platform(n))
      .map(([n, v]) => dep('composer', n, v, false)),
    ...stringRecord(json['require-dev'])
      .filter(([n]) => !platform(n))
      .map(([n, v]) => dep('composer', n, v, true)),
  ];
  const php = stringRecord(json.require).find(([n]) => n === 'php')?.[1];
  const scripts = isRecord(json.scripts) ? json.scripts : {};
  const out: ManifestRead = {
    path,
    ecosystem: 'composer',
    dependencies,
    language: php ? { name: 'PHP', version: php } : { name: 'PHP' },
    entries: [],
  };
  if (scripts.test !== undefined) out.test = 'composer test';
  else if (dependencies.some((d) => d.name === 'pestphp/pest')) out.test = 'vendor/bin/pest';
  else if (dependencies.some((d) => d.name === 'phpunit/phpunit')) out.test = 'vendor/bin/phpunit';
  return out;
};
