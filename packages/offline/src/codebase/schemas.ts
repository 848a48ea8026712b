/**
 * Tables and models: SQL `CREATE TABLE`, migrations (Alembic, Rails, Laravel, Knex), schema
 * files (Prisma, Diesel, Drizzle) and ORM models (SQLAlchemy, SQLModel, Django, TypeORM, JPA,
 * GORM, Mongoose). A table declared in a migration and again as a model is one entity, named
 * as the migration names it.
 */
import { singular } from '../text/words.ts';
import { inside, splitTopLevel } from './scan.ts';
import { isTestPath } from './source.ts';
import type { Entity } from './types.ts';

type File = { path: string; content: string };
type Found = { name: string; file: string; columns: string[] };
type Reader = (file: File) => Found[];

const SQL_CONSTRAINT =
  /^(?:constraint|primary|foreign|unique|check|key|index|exclude|like|fulltext|spatial|period)\b/i;

const JS = /\.[cm]?[jt]sx?$/;

/**
 * A reader kept to the files of its language that hold its keyword: a cheap `includes` spares
 * the full patterns on the files that cannot match.
 */
const only =
  (pattern: RegExp, keywords: readonly string[], reader: Reader): Reader =>
  (file) =>
    pattern.test(file.path) && keywords.some((k) => file.content.includes(k)) ? reader(file) : [];

const ANY = /./;

const sql: Reader = (file) => {
  const text = file.path.endsWith('.sql') ? file.content.replace(/--[^\n]*/g, '') : file.content;
  const found: Found[] = [];
  for (const m of text.matchAll(
    /\bcreate\s+(?:(?:global\s+|local\s+)?(?:temporary|temp|unlogged)\s+)?table\s+(?:if\s+not\s+exists\s+)?(?:[`"[]?\w+[`"\]]?\.)?[`"[]?(\w+)[`"\]]?\s*\(/gi,
  )) {
    const columns = splitTopLevel(inside(text, m.index + m[0].length - 1))
      .map((item) => item.trim())
      .filter((item) => item && !SQL_CONSTRAINT.test(item))
      .flatMap((item) => /^[`"[]?(\w+)/.exec(item)?.[1] ?? []);
    found.push({ name: m[1]!, file: file.path, columns });
  }
  for (const m of text.matchAll(
    /\balter\s+table\s+(?:if\s+exists\s+)?(?:only\s+)?(?:[`"]?\w+[`"]?\.)?[`"]?(\w+)[`"]?\s+add\s+(?:column\s+)?(?:if\s+not\s+exists\s+)?[`"]?(\w+)/gi,
  ))
    if (!/^(?:constraint|primary|foreign|unique|index|key)$/i.test(m[2]!))
      found.push({ name: m[1]!, file: file.path, columns: [m[2]!] });
  return found;
};

/** `name("table", … column("a") … )` readers: Alembic, Laravel, Knex. */
function call(
  pattern: RegExp,
  column: RegExp,
  extra: (body: string) => string[] = () => [],
): Reader {
  return (file) =>
    [...file.content.matchAll(pattern)].map((m) => {
      const body = inside(file.content, m.index + m[0].indexOf('('), {
        hash: file.path.endsWith('.py'),
      });
      return {
        name: m[1]!,
        file: file.path,
        columns: [...extra(body), ...[...body.matchAll(column)].map((c) => c[1]!)],
      };
    });
}

const alembic = call(/\bop\.create_table\(\s*['"](\w+)['"]/g, /\bColumn\(\s*['"](\w+)['"]/g);
const laravel = call(
  /Schema::create\(\s*['"](\w+)['"]/g,
  /->(?!foreign|index|unique|primary|references|on\b)\w+\(\s*['"](\w+)['"]/g,
  (body) => [
    ...(/->id\(\)/.test(body) ? ['id'] : []),
    ...(/->timestamps\(\)/.test(body) ? ['created_at', 'updated_at'] : []),
  ],
);
const knex = call(
  /\.createTable\(\s*['"](\w+)['"]/g,
  /\.(?!foreign|index|unique|primary|references|inTable|onDelete)\w+\(\s*['"](\w+)['"]/g,
);

const rails: Reader = (file) =>
  file.path.endsWith('.rb')
    ? [
        ...file.content.matchAll(
          /\bcreate_table\s*\(?\s*[:"'](\w+)["']?[^\n]*\n([\s\S]*?)\n\s*end\b/g,
        ),
      ].map((m) => ({
        name: m[1]!,
        file: file.path,
        columns: [
          ...[...m[2]!.matchAll(/\bt\.(\w+)\s+[:"'](\w+)/g)].map((c) =>
            /^(?:references|belongs_to)$/.test(c[1]!) ? `${c[2]}_id` : c[2]!,
          ),
          ...(/\bt\.timestamps\b/.test(m[2]!) ? ['created_at', 'updated_at'] : []),
        ],
      }))
    : [];

const diesel: Reader = (file) =>
  [...file.content.matchAll(/\btable!\s*\{\s*(?:\w+::)*(\w+)\s*(?:\([^)]*\))?\s*\{([^}]*)\}/g)].map(
    (m) => ({
      name: m[1]!,
      file: file.path,
      columns: [...m[2]!.matchAll(/(\w+)\s*->/g)].map((c) => c[1]!),
    }),
  );

/** The keys of an object literal whose `{` is at `open`. */
const keys = (text: string, open: number) =>
  splitTopLevel(inside(text, open)).flatMap(
    (entry) => /^\s*['"]?(\w+)['"]?\s*:/.exec(entry)?.[1] ?? [],
  );

const drizzle: Reader = (file) =>
  [...file.content.matchAll(/\b(?:pg|mysql|sqlite)Table\(\s*['"](\w+)['"]\s*,\s*\{/g)].map((m) => ({
    name: m[1]!,
    file: file.path,
    columns: keys(file.content, m.index + m[0].length - 1),
  }));

const prisma: Reader = (file) =>
  file.path.endsWith('.prisma')
    ? [...file.content.matchAll(/^\s*model\s+(\w+)\s*\{/gm)].map((m) => ({
        name: m[1]!,
        file: file.path,
        columns: inside(file.content, m.index + m[0].length - 1)
          .split('\n')
          .flatMap((line) => /^\s*(\w+)\s+\w/.exec(line)?.[1] ?? []),
      }))
    : [];

/** A Python class's body: the lines indented under it. */
function pythonClasses(text: string): { name: string; bases: string; body: string }[] {
  const lines = text.split('\n');
  const out: { name: string; bases: string; body: string }[] = [];
  lines.forEach((line, i) => {
    const m = /^(\s*)class\s+(\w+)\s*\(([^)]*)\)\s*:/.exec(line);
    if (!m) return;
    const indent = m[1]!.length;
    let end = i + 1;
    while (
      end < lines.length &&
      (!lines[end]!.trim() || /^\s*/.exec(lines[end]!)![0].length > indent)
    )
      end++;
    out.push({ name: m[2]!, bases: m[3]!, body: lines.slice(i + 1, end).join('\n') });
  });
  return out;
}

const python: Reader = (file) => {
  if (!file.path.endsWith('.py')) return [];
  return pythonClasses(file.content).flatMap(({ name, bases, body }) => {
    const table = /^\s*__tablename__\s*=\s*['"](\w+)['"]/m.exec(body)?.[1];
    if (table)
      return [
        {
          name: table,
          file: file.path,
          columns: [
            ...body.matchAll(/^\s+(\w+)\s*(?::[^=\n]+)?=\s*(?:\w+\.)?(?:Column|mapped_column)\(/gm),
          ].map((c) => c[1]!),
        },
      ];
    if (/\btable\s*=\s*True\b/.test(bases))
      return [
        {
          name,
          file: file.path,
          columns: [...body.matchAll(/^\s+(\w+)\s*:\s*[^\n]+$/gm)].flatMap((c) =>
            c[1]!.startsWith('_') ? [] : [c[1]!],
          ),
        },
      ];
    if (/\bmodels\.Model\b/.test(bases) && !/^\s*abstract\s*=\s*True/m.test(body))
      return [
        {
          name,
          file: file.path,
          columns: [...body.matchAll(/^\s+(\w+)\s*=\s*models\.\w+(?:Field|Key)\b/gm)].map(
            (c) => c[1]!,
          ),
        },
      ];
    return [];
  });
};

const COLUMN_DECORATOR = /^\s*@(?:\w*Column|ManyToOne|OneToOne|JoinColumn)\b/;

/** TypeORM `@Entity() class X` and JPA `@Entity @Table(name = "x") class X`. */
const decorated: Reader = (file) => {
  if (!/\.(?:[cm]?ts|java|kt)$/.test(file.path)) return [];
  const java = !file.path.endsWith('ts');
  return [
    ...file.content.matchAll(/@Entity\b(\s*\([^)]*\))?([\s\S]{0,400}?)\bclass\s+(\w+)[^{]*\{/g),
  ].map((m) => {
    const table =
      /['"](\w+)['"]/.exec(m[1] ?? '')?.[1] ?? /@Table\s*\(\s*name\s*=\s*"(\w+)"/.exec(m[2]!)?.[1];
    const body = inside(file.content, m.index + m[0].length - 1);
    const columns: string[] = [];
    let pending = false;
    for (const line of body.split('\n')) {
      if (java) {
        const field =
          /^\s*(?:private|protected|public)\s+(?!static)[\w<>, ?[\]]+\s+(\w+)\s*(?:=[^;]*)?;/.exec(
            line,
          );
        if (field) columns.push(field[1]!);
        continue;
      }
      if (COLUMN_DECORATOR.test(line)) pending = true;
      const property = /^\s*(?:public\s+|private\s+|readonly\s+)*(\w+)[!?]?\s*:/.exec(line);
      if (pending && property && !line.trim().startsWith('@')) {
        columns.push(property[1]!);
        pending = false;
      }
    }
    return { name: table ?? m[3]!, file: file.path, columns };
  });
};

const gorm: Reader = (file) =>
  file.path.endsWith('.go')
    ? [...file.content.matchAll(/\btype\s+(\w+)\s+struct\s*\{/g)].flatMap((m) => {
        const body = inside(file.content, m.index + m[0].length - 1);
        if (!/\bgorm\.Model\b|gorm:"/.test(body)) return [];
        const columns = body
          .split('\n')
          .flatMap((line) => /^\s*([A-Z]\w*)\s+[\w.*[\]]+/.exec(line)?.[1] ?? []);
        return [{ name: m[1]!, file: file.path, columns }];
      })
    : [];

const mongoose: Reader = (file) =>
  [...file.content.matchAll(/\bmodel\(\s*['"](\w+)['"]\s*,\s*(\w+)/g)].map((m) => {
    const schema = new RegExp(
      `\\b${m[2]}\\s*=\\s*new\\s+(?:mongoose\\.)?Schema\\s*\\(\\s*\\{`,
    ).exec(file.content);
    return {
      name: m[1]!,
      file: file.path,
      columns: schema ? keys(file.content, schema.index + schema[0].length - 1) : [],
    };
  });

// Migrations and schemas first: their names are the tables' own.
const READERS: Reader[] = [
  only(ANY, ['table', 'TABLE', 'Table'], sql),
  only(/\.py$/, ['create_table'], alembic),
  only(/\.rb$/, ['create_table'], rails),
  only(/\.php$/, ['Schema::create'], laravel),
  only(JS, ['createTable'], knex),
  only(/\.rs$/, ['table!'], diesel),
  only(JS, ['Table('], drizzle),
  only(/\.py$/, ['__tablename__', 'models.Model', 'table=True', 'table = True'], python),
  only(/\.prisma$/, ['model'], prisma),
  only(/\.(?:[cm]?ts|java|kt)$/, ['@Entity'], decorated),
  only(/\.go$/, ['gorm'], gorm),
  only(JS, ['model('], mongoose),
];

/** `OrderItem`, `order_items`, `public.order_item` → `order_item`. */
function entityKey(name: string): string {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const parts = snake.split('_');
  parts.push(singular(parts.pop()!));
  return parts.join('_');
}

/**
 * Every table and model of the digest, one entity per name, columns merged.
 *
 * @example
 * readEntities([{ path: 'db/schema.sql', content: 'CREATE TABLE vehicles (id bigserial, plate text);' }]);
 * // [{ name: 'vehicles', file: 'db/schema.sql', columns: ['id', 'plate'] }]
 */
export function readEntities(files: readonly File[]): Entity[] {
  const sources = files.filter(
    (f) =>
      !isTestPath(f.path) &&
      !/(^|\/)(?:node_modules|vendor|dist)\/|\.(?:md|txt|json|lock)$/i.test(f.path),
  );
  const byKey = new Map<
    string,
    { name: string; file: string; columns: string[]; alsoIn: string[] }
  >();
  for (const reader of READERS)
    for (const file of sources)
      for (const found of reader(file)) {
        const k = entityKey(found.name);
        const entity = byKey.get(k);
        if (!entity) {
          byKey.set(k, { ...found, columns: [...new Set(found.columns)], alsoIn: [] });
          continue;
        }
        for (const column of found.columns)
          if (!entity.columns.includes(column)) entity.columns.push(column);
        if (found.file !== entity.file && !entity.alsoIn.includes(found.file))
          entity.alsoIn.push(found.file);
      }
  return [...byKey.values()].map(({ alsoIn, ...entity }) =>
    alsoIn.length > 0 ? { ...entity, alsoIn } : entity,
  );
}
