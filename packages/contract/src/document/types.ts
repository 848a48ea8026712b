/**
 * The PGS nodes of a document tree, declared into mdast's content maps (module augmentation),
 * so a PGS document is an mdast `Root` that every mdast utility can walk.
 *
 * A PGS node stands where its definition is written and keeps the mdast it was written as:
 * - `section`: a heading that opens with the ID and everything after it up to the next
 *   heading as high (`### FR-2 Reminders (Must)` and its criteria); the heading is the first
 *   child.
 * - `paragraph`: a paragraph opening with the ID in bold (`**FR-2.1** WHEN …`); its children
 *   are the paragraph's.
 * - `item`: a list item opening with the ID (`- T-4 Write the tests`); it is the list item.
 * - `row`: a table body row whose first cell opens with the ID (`| T-4 | Write … |`); its
 *   children are the row's cells.
 * Its typed fields (id, title, cites, priority…) are read from those children by one
 * function (`fields.ts`), at parse and when a tree is built in code, so rendering writes the
 * children alone and loses nothing. IDs cited in text are `idRef` nodes: a `text` node never
 * holds an ID (an ID-like string of user text is text, and is rendered escaped).
 */
import type {
  BlockContent,
  DefinitionContent,
  Literal,
  Node,
  PhrasingContent,
  TableCell,
} from 'mdast';
import type { IdKind } from './ids.ts';

/** Where a node is written in the source. */
export type Position = NonNullable<Node['position']>;

/** Block content a section or an item holds. */
export type FlowContent = BlockContent | DefinitionContent;

/** MoSCoW priority of a requirement or a story, as its text states it. */
export type Priority = 'must' | 'should' | 'could' | 'wont';

/** An ID cited in text (`FR-2.1`, `T-4`); `value` is the ID, so `mdast-util-to-string` reads it. */
export interface IdRef extends Literal {
  type: 'idRef';
}

/** A definition written as a heading and what follows it, up to the next heading as high. */
export interface SectionForm {
  form: 'section';
  /** The heading first, then the blocks it heads (nested definitions among them). */
  children: FlowContent[];
}

/** A definition written as a paragraph opening with its ID in bold. */
export interface ParagraphForm {
  form: 'paragraph';
  children: PhrasingContent[];
}

/** A definition written as a list item opening with its ID. */
export interface ItemForm {
  form: 'item';
  spread?: boolean | null | undefined;
  checked?: boolean | null | undefined;
  children: FlowContent[];
}

/** A definition written as a table body row whose first cell opens with its ID. */
export interface RowForm {
  form: 'row';
  children: TableCell[];
}

/** The ways a definition is written. */
export type Form = SectionForm | ParagraphForm | ItemForm | RowForm;

/** The keyword a Gherkin step opens with. */
export type StepKeyword = 'Given' | 'When' | 'Then' | 'And' | 'But';

/** One step of a scenario: `{ keyword: 'When', text: 'a vaccination falls due' }`. */
export interface ScenarioStep {
  keyword: StepKeyword;
  /** The step after its keyword, as plain text on one line. */
  text: string;
}

/**
 * An acceptance criterion written as a Gherkin scenario (a project whose requirement style is
 * `gherkin`, docs/document-formats.md): `- **FR-2.1** Scenario: <name>`, then its steps.
 */
export interface Scenario {
  /** The text after `Scenario:`, on one line. */
  name: string;
  /** In order, as written; `And` and `But` continue the step before them. */
  steps: ScenarioStep[];
}

/** What every definition carries, read from its children. */
export interface DefinitionFields {
  /** The ID it defines (`FR-2`, `FR-2.1`, `T-4`). */
  id: string;
  /** The text after the ID, without separators or a priority tag, cut on a word at 120 characters. */
  title: string;
  /** The IDs its own text cites (nested definitions' aside), each once, in order. */
  cites: string[];
}

/** The typed fields of each kind of definition, beyond {@link DefinitionFields}. */
export interface DefinitionKinds {
  /** A functional requirement group `FR-n`. */
  requirement: { priority?: Priority };
  /**
   * An acceptance criterion `FR-n.m`; `requirement` is its group `FR-n`. `scenario` when it
   * is written as a Gherkin scenario (`Scenario:` or Given/When/Then steps), not an EARS
   * sentence.
   */
  criterion: { requirement: string; scenario?: Scenario };
  /** A non-functional requirement `NFR-n`. */
  nfr: Record<never, never>;
  /** A user story `US-n`. */
  story: { priority?: Priority };
  /**
   * A task `T-n` of the plan. In a row under the plan's columns (ID, Task, Implements,
   * Depends on, Estimate) each field is its cell; elsewhere `implements` is what it cites
   * other than tasks and `dependsOn` the tasks it cites.
   */
  task: { implements: string[]; dependsOn: string[]; estimate?: string };
  /** A goal `G-n`, risk `R-n`, assumption `A-n` or open question `Q-n` of the brief. */
  registerEntry: { register: 'goal' | 'risk' | 'assumption' | 'question' };
}

/** The type of a definition node. */
export type DefinitionType = keyof DefinitionKinds;

/** A definition of kind `K`, in any of its forms. */
export type DefinitionOf<K extends DefinitionType> = Node & { type: K } & DefinitionFields &
  DefinitionKinds[K] &
  Form;

export type Requirement = DefinitionOf<'requirement'>;
export type Criterion = DefinitionOf<'criterion'>;
export type Nfr = DefinitionOf<'nfr'>;
export type Story = DefinitionOf<'story'>;
export type Task = DefinitionOf<'task'>;
export type RegisterEntry = DefinitionOf<'registerEntry'>;

/** Any definition. */
export type Definition = Requirement | Criterion | Nfr | Story | Task | RegisterEntry;

/**
 * A component of the architecture: a `###` heading under `## Components` and what follows it.
 * Not an ID: it is known by its name, and it implements what it cites.
 */
export interface Component extends Node {
  type: 'component';
  /** The heading's text. */
  name: string;
  /** The IDs its text cites, each once, in order. */
  implements: string[];
  /** Its heading first. */
  children: FlowContent[];
}

/** Any PGS block node. */
export type PgsNode = Definition | Component;

/** A definition written in one form: `Written<Task, 'row'>`. */
export type Written<T, F extends Form['form']> = Extract<T, { form: F }>;

type InFlow<T> = Extract<T, { form: 'section' | 'paragraph' }>;
type InList<T> = Extract<T, { form: 'item' }>;
type InTable<T> = Extract<T, { form: 'row' }>;

declare module 'mdast' {
  interface RootContentMap {
    idRef: IdRef;
    requirement: Requirement;
    criterion: Criterion;
    nfr: Nfr;
    story: Story;
    task: Task;
    registerEntry: RegisterEntry;
    component: Component;
  }
  interface PhrasingContentMap {
    idRef: IdRef;
  }
  interface CodeData {
    /** Set by the parser on an indented code block (no fence, so no language). */
    indented?: boolean;
  }
  interface BlockContentMap {
    requirement: InFlow<Requirement>;
    criterion: InFlow<Criterion>;
    nfr: InFlow<Nfr>;
    story: InFlow<Story>;
    task: InFlow<Task>;
    registerEntry: InFlow<RegisterEntry>;
    component: Component;
  }
  interface ListContentMap {
    requirement: InList<Requirement>;
    criterion: InList<Criterion>;
    nfr: InList<Nfr>;
    story: InList<Story>;
    task: InList<Task>;
    registerEntry: InList<RegisterEntry>;
  }
  interface TableContentMap {
    requirement: InTable<Requirement>;
    criterion: InTable<Criterion>;
    nfr: InTable<Nfr>;
    story: InTable<Story>;
    task: InTable<Task>;
    registerEntry: InTable<RegisterEntry>;
  }
}

/** The node type of each kind of ID. */
export const DEFINITION_TYPE: Record<IdKind, DefinitionType> = {
  goal: 'registerEntry',
  risk: 'registerEntry',
  assumption: 'registerEntry',
  question: 'registerEntry',
  requirement: 'requirement',
  criterion: 'criterion',
  nfr: 'nfr',
  story: 'story',
  task: 'task',
};

const DEFINITION_TYPES = new Set<string>(Object.values(DEFINITION_TYPE));

/**
 * Whether a node is a definition.
 *
 * @example
 * isDefinition({ type: 'paragraph', children: [] }); // false
 */
export function isDefinition(node: { type: string }): node is Definition {
  return DEFINITION_TYPES.has(node.type);
}
