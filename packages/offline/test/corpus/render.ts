/**
 * A written product (products.ts) rendered as ideas in the shapes people type and as change
 * requests against one of them, each annotated from the parts it was written from.
 */
import type { Part, Product } from './products.ts';
import type {
  CorpusCapability,
  CorpusChange,
  CorpusIdea,
  ExpectedDelta,
  Priority,
} from './types.ts';

const WRITTEN = 'written for the corpus';
const LICENCE = 'MIT (this repository)';

/** "send" → "sends", "reply" → "replies", "check in" → "checks in". */
function third(verb: string): string {
  const [head = '', ...tail] = verb.split(' ');
  const inflected = /(?:s|sh|ch|x|z)$/.test(head)
    ? `${head}es`
    : /[^aeiou]y$/.test(head)
      ? `${head.slice(0, -1)}ies`
      : `${head}s`;
  return [inflected, ...tail].join(' ');
}

const phrase = ([verb, object, rest]: Part) => `${verb} ${object}${rest ? ` ${rest}` : ''}`;
const thirdPhrase = ([verb, object, rest]: Part) =>
  `${third(verb)} ${object}${rest ? ` ${rest}` : ''}`;
const upper = (text: string) => `${text[0]!.toUpperCase()}${text.slice(1)}`;
const and = (items: readonly string[]) =>
  `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** The object's key word: its last word ("vaccination records" → "records"). */
const keyOf = (object: string) => object.split(' ').pop()!;

const capability = (part: Part, priority: Priority): CorpusCapability => ({
  verb: part[0].split(' ')[0]!,
  object: keyOf(part[1]),
  ...(part[3] === undefined ? {} : { qualifiers: [part[3]] }),
  priority,
});

/** The problems the paragraph shape opens with: a reader must not make a feature of them. */
const PAINS = [
  'spreadsheets that nobody keeps up to date',
  'phone calls and sticky notes',
  'a shared inbox where things get lost',
  'paper forms that go missing',
];

interface Shape {
  shape: string;
  named: boolean;
  text: (p: Product, i: number) => string;
  priorities: readonly [Priority, Priority, Priority];
  /** Whether the shape states the wish, and the constraint. */
  wish: boolean;
  constraint: boolean;
}

const SHAPES: readonly Shape[] = [
  {
    shape: 'one line',
    named: false,
    text: (p) =>
      `${upper(p.kind)} for ${p.who} to ${phrase(p.caps[0])}, ${phrase(p.caps[1])}, and ${phrase(p.caps[2])}`,
    priorities: ['should', 'should', 'should'],
    wish: false,
    constraint: false,
  },
  {
    shape: 'Name — …',
    named: true,
    text: (p) => `${p.name} — ${p.kind} for ${p.who}: ${and(p.caps.map(phrase))}.`,
    priorities: ['should', 'should', 'should'],
    wish: false,
    constraint: false,
  },
  {
    shape: 'Name is …',
    named: true,
    text: (p) => `${p.name} is ${p.kind} for ${p.who} that ${and(p.caps.map(thirdPhrase))}.`,
    priorities: ['should', 'should', 'should'],
    wish: false,
    constraint: false,
  },
  {
    shape: 'called Name',
    named: true,
    text: (p) =>
      `I want to build ${p.kind} called ${p.name}. ${upper(p.who)} can ${phrase(p.caps[0])} and ${phrase(p.caps[1])}. It also ${thirdPhrase(p.caps[2])}.`,
    priorities: ['should', 'should', 'should'],
    wish: false,
    constraint: false,
  },
  {
    shape: 'bullets',
    named: true,
    text: (p) =>
      `${p.name}: ${p.kind} for ${p.who}.\n\n${p.caps.map((part) => `- ${upper(phrase(part))}`).join('\n')}\n- v2: ${phrase(p.wish)}`,
    priorities: ['should', 'should', 'should'],
    wish: true,
    constraint: false,
  },
  {
    shape: 'paragraph',
    named: false,
    text: (p, i) =>
      `${upper(p.who)} still run everything on ${PAINS[i % PAINS.length]}. We want ${p.kind} that ${thirdPhrase(p.caps[0])}. It should also ${phrase(p.caps[1])}, and ${p.who} need to ${phrase(p.caps[2])}. Maybe later it could ${phrase(p.wish)}.`,
    priorities: ['should', 'should', 'should'],
    wish: true,
    constraint: false,
  },
  {
    shape: 'constraints and wishes',
    named: true,
    text: (p) =>
      `${p.name} (${p.kind} for ${p.who}). It must ${phrase(p.caps[0])}. Required: ${p.constraint}. It should ${phrase(p.caps[1])} and ${phrase(p.caps[2])}. Nice to have: ${phrase(p.wish)}.`,
    priorities: ['must', 'should', 'should'],
    wish: true,
    constraint: true,
  },
];

/**
 * The seven ideas of a product, one per shape.
 *
 * @example
 * ideasOf(PRODUCTS[0]!).map((idea) => idea.shape).length; // 7
 */
export function ideasOf(product: Product, index: number): CorpusIdea[] {
  return SHAPES.map((shape) => ({
    id: `written:${product.name}/${shape.shape}`,
    source: WRITTEN,
    licence: LICENCE,
    shape: shape.shape,
    idea: shape.text(product, index),
    name: shape.named ? product.name : null,
    type: product.type,
    capabilities: [
      ...product.caps.map((part, i) => capability(part, shape.priorities[i]!)),
      ...(shape.wish ? [capability(product.wish, 'could')] : []),
    ],
    constraints: shape.constraint ? [product.constraint] : [],
  }));
}

/** The idea every change request of a product revises: the "Name is …" shape, all three capabilities, no wish. */
const baseOf = (product: Product) => `written:${product.name}/Name is …`;

type Kind = (p: Product) => { request: string; expected: ExpectedDelta[] };

const added = (part: Part): ExpectedDelta => ({
  op: 'added',
  capability: { verb: part[0], object: keyOf(part[1]) },
});
const swapped = (p: Product): ExpectedDelta => ({
  op: 'modified',
  target: p.swap[0],
  now: p.swap[2],
  gone: p.swap[1],
});
/** A capability other than the swapped one, so that one request does not drop what it modifies. */
const other = (p: Product) => (p.swap[0] === 1 ? 2 : 1);

/** " for the <object>", unless the value replaced is the object itself ("instead of parents"). */
const forObject = (p: Product) => {
  const object = p.caps[p.swap[0]][1];
  return object.includes(p.swap[1]) ? '' : ` for the ${object}`;
};

const KINDS: Record<string, Kind> = {
  add: (p) => ({ request: `Add a way to ${phrase(p.add)}.`, expected: [added(p.add)] }),
  drop: (p) => ({
    request: `Drop the ${p.caps[1][1]}.`,
    expected: [{ op: 'removed', target: 1 }],
  }),
  remove: (p) => ({
    request: `Please remove the ${p.caps[2][1]} from the first release.`,
    expected: [{ op: 'removed', target: 2 }],
  }),
  'no longer': (p) => ({
    request: `We no longer need to ${phrase(p.caps[0])}.`,
    expected: [{ op: 'removed', target: 0 }],
  }),
  'X instead of Y': (p) => ({
    request: `Use ${p.swap[2]} instead of ${p.swap[1]}${forObject(p)}.`,
    expected: [swapped(p)],
  }),
  'replace Y with X': (p) => ({
    request: `Replace ${p.swap[1]} with ${p.swap[2]}.`,
    expected: [swapped(p)],
  }),
  rename: (p) => ({
    request: `Rename the ${p.caps[p.rename[0]][1]} to ${p.rename[1]}.`,
    expected: [{ op: 'renamed', target: p.rename[0], now: keyOf(p.rename[1]) }],
  }),
  'several clauses': (p) => ({
    request: `Add a way to ${phrase(p.add)}, drop the ${p.caps[other(p)][1]}, and use ${p.swap[2]} instead of ${p.swap[1]}.`,
    expected: [added(p.add), { op: 'removed', target: other(p) }, swapped(p)],
  }),
  'repeated clause': (p) => ({
    request: `Add a way to ${phrase(p.add)}. Oh, and we need to ${phrase(p.add)} too.`,
    expected: [added(p.add)],
  }),
  'two additions': (p) => ({
    request: `Also let ${p.who} ${phrase(p.add)}, and ${phrase(p.wish)}.`,
    expected: [added(p.add), added(p.wish)],
  }),
};

const KIND_NAMES = Object.keys(KINDS);

/**
 * A product's change requests against its "Name is …" idea: two or three kinds, rotating so
 * that every kind is used about as often.
 *
 * @example
 * changesOf(PRODUCTS[0]!, 0)[0]!.idea; // 'written:Kennelry/Name is …'
 */
export function changesOf(product: Product, index: number): CorpusChange[] {
  const n = KIND_NAMES.length;
  const picks = [index % n, (index + 4) % n, ...(index % 3 === 0 ? [(index + 7) % n] : [])];
  return [...new Set(picks)].map((pick) => {
    const kind = KIND_NAMES[pick]!;
    return {
      id: `written:${product.name}/${kind}`,
      idea: baseOf(product),
      shape: kind,
      ...KINDS[kind]!(product),
    };
  });
}
