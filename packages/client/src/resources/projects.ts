import type { ProjectStatus, ProjectStatusResponse } from '@pgs/contract';
import type { RequestOptions } from '../core.ts';
import { APIResource, segment } from './resource.ts';

/**
 * Generated projects. `pgs.projects`.
 *
 * @example
 * const project = await pgs.projects.get('7d0f2c8e-4a9b-4e43-9a55-0d2b8f1c6e21');
 * if (project.status === 'completed') console.log(project.project.name);
 */
export class Projects extends APIResource {
  /**
   * Reads a project's status: `in_progress` (with `estimatedCompletionMs`),
   * `completed` (with `project` and `metadata`) or `failed` (with `error`). A
   * failed generation is a status, not a thrown error.
   *
   * @example
   * const p = await pgs.projects.get(id);
   * switch (p.status) { case 'in_progress': wait(p.estimatedCompletionMs); break; case 'failed': console.error(p.error.message); }
   */
  async get(projectId: string, options: RequestOptions = {}): Promise<ProjectStatus> {
    const { body } = await this.request<ProjectStatusResponse>({
      ...options,
      method: 'GET',
      path: `/projects/${segment('projectId', projectId)}`,
    });
    return body.data;
  }
}
