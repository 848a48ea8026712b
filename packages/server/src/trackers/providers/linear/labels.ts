/**
 * A Linear team's labels by name for one connection's client: found on the team or the
 * workspace, created on the team when missing, and told apart from the labels people add.
 */
import type { LinearClient } from '@linear/sdk';
import { TrackerRequestError } from '../provider.ts';

/** The labels PGS writes: `pgs` and FR IDs; any other label on an issue is a person's. */
const PGS_LABEL = /^(?:pgs|FR-\d+)$/i;
const PAGE = 100;

/** Label ids by name (case-insensitive, as Linear compares them) and names by id. */
export class LabelCache {
  readonly #ids = new Map<string, string>();
  readonly #names = new Map<string, string>();

  #remember(id: string, name: string): void {
    this.#ids.set(name.toLowerCase(), id);
    this.#names.set(id, name);
  }

  /** The ids of these labels, the missing ones created on the team. */
  async ids(sdk: LinearClient, teamId: string, names: string[]): Promise<string[]> {
    const missing = names.filter((name) => !this.#ids.has(name.toLowerCase()));
    if (missing.length > 0) {
      const page = await sdk.issueLabels({
        filter: {
          name: { in: missing },
          or: [{ team: { id: { eq: teamId } } }, { team: { null: true } }],
        },
        first: PAGE,
      });
      while (page.pageInfo.hasNextPage) await page.fetchNext();
      for (const label of page.nodes) this.#remember(label.id, label.name);
    }
    for (const name of names) {
      if (this.#ids.has(name.toLowerCase())) continue;
      const created = await sdk.createIssueLabel({ name, teamId });
      const id = created.issueLabelId;
      if (!id) {
        throw new TrackerRequestError(`Linear did not create the label ${name}`, {
          retryable: true,
        });
      }
      this.#remember(id, name);
    }
    return names.map((name) => this.#ids.get(name.toLowerCase()) as string);
  }

  /**
   * The labels an issue keeps besides PGS's: those people added. A label of PGS's own form
   * (`pgs`, an FR ID) that the draft no longer names is dropped (a task moved to another FR).
   */
  async peoples(sdk: LinearClient, labelIds: string[]): Promise<string[]> {
    const unknown = labelIds.filter((id) => !this.#names.has(id));
    if (unknown.length > 0) {
      const page = await sdk.issueLabels({ filter: { id: { in: unknown } }, first: PAGE });
      while (page.pageInfo.hasNextPage) await page.fetchNext();
      for (const label of page.nodes) this.#remember(label.id, label.name);
    }
    return labelIds.filter((id) => {
      const name = this.#names.get(id);
      return name !== undefined && !PGS_LABEL.test(name);
    });
  }
}
