import type { FastifyBaseLogger } from 'fastify';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

/** DATA_DIR/jobs: one workspace per job, holding the pipeline's per-step checkpoints. */
export class JobWorkspaces {
  constructor(
    private readonly jobsDir: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  pathOf(jobId: string): string {
    return join(this.jobsDir, jobId);
  }

  /** Never throws: a workspace left behind costs disk, not correctness. */
  async remove(jobId: string, log: FastifyBaseLogger = this.log): Promise<void> {
    try {
      await rm(this.pathOf(jobId), { recursive: true, force: true });
    } catch (error) {
      log.warn({ err: error, jobId }, 'could not remove job workspace');
    }
  }
}
