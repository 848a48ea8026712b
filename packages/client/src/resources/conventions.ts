import type { components } from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource } from './resource.ts';

type Schemas = components['schemas'];

/**
 * Body of `conventions.put`: `{ markdown?, stack?: { required?, forbidden? }, compliance?,
 * language?, requirementStyle?, detail?, naming?, sections? }`, every member optional.
 */
export type ConventionsParams = Schemas['ConventionsRequest'];
/** A version of the house conventions: the members as written, `version` and `createdAt`. */
export type HouseConventions = Schemas['Conventions'];

/**
 * House conventions of the key's account in its mode (docs/conventions.md): the stack,
 * compliance, language, requirement style, detail, naming and sections every new project
 * follows. `pgs.conventions`.
 *
 * @example
 * await pgs.conventions.put({ stack: { required: ['PostgreSQL'] }, compliance: ['GDPR'], language: 'de' });
 */
export class Conventions extends APIResource {
  /**
   * The current version; a `NotFoundError` (404) while none are set.
   *
   * @example
   * const { version, stack } = await pgs.conventions.get();
   */
  async get(options: RequestOptions = {}): Promise<HouseConventions> {
    const { body } = await this.request<Schemas['ConventionsResponse']>({
      ...options,
      method: 'GET',
      path: '/conventions',
    });
    return body.data;
  }

  /**
   * Writes a new version holding exactly `body` (a member left out is not in force) and
   * returns it; projects created from now on follow it and record its `version`.
   *
   * @example
   * const { version } = await pgs.conventions.put({ naming: ['Tables are plural snake_case'] });
   */
  async put(body: ConventionsParams, options: RequestOptions = {}): Promise<HouseConventions> {
    const { body: answer } = await this.request<Schemas['ConventionsResponse']>({
      ...options,
      method: 'PUT',
      path: '/conventions',
      body,
    });
    return answer.data;
  }

  /**
   * One version as it was written (a project's `conventionsVersion`); 404 for one never written.
   *
   * @example
   * const used = await pgs.conventions.version(provenance.conventionsVersion!);
   */
  async version(version: number, options: RequestOptions = {}): Promise<HouseConventions> {
    const { body } = await this.request<Schemas['ConventionsResponse']>({
      ...options,
      method: 'GET',
      path: `/conventions/versions/${encodeURIComponent(String(version))}`,
    });
    return body.data;
  }
}
