/**
 * Cargo.toml: a crate's or a workspace's dependencies, with their features, and its Rust
 * version.
 */
import { parse as parseToml } from 'smol-toml';
import { dep, isRecord, type Reader, strings } from './manifest-read.ts';

/** Cargo.toml. */
export const cargo: Reader = (path, content) => {
  const toml = parseToml(content) as Record<string, unknown>;
  const table = (value: unknown, dev: boolean) =>
    isRecord(value)
      ? Object.entries(value).map(([name, v]) =>
          typeof v === 'string'
            ? dep('cargo', name, v, dev)
            : isRecord(v)
              ? dep(
                  'cargo',
                  typeof v.package === 'string' ? v.package : name,
                  typeof v.version === 'string' ? v.version : undefined,
                  dev,
                  strings(v.features),
                )
              : dep('cargo', name, undefined, dev),
        )
      : [];
  const workspace = isRecord(toml.workspace) ? toml.workspace : {};
  const pkg = isRecord(toml.package) ? toml.package : {};
  const version = typeof pkg['rust-version'] === 'string' ? pkg['rust-version'] : undefined;
  return {
    path,
    ecosystem: 'cargo',
    dependencies: [
      ...table(toml.dependencies, false),
      ...table(workspace.dependencies, false),
      ...table(toml['dev-dependencies'], true),
    ],
    language: version ? { name: 'Rust', version } : { name: 'Rust' },
    test: 'cargo test',
    entries: [],
  };
};
