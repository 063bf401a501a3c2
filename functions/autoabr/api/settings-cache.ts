/**
 * Settings documents loaded by URL and kept per API instance until the shared generation changes
 * (DELETE /autoabr/cache). A failed load is never cached, and every failure is the caller's 400 naming
 * the request field that pointed at the document, except S3 being unreachable (503 store_unavailable,
 * which the HTTP edge makes of the SDK's error) or failing otherwise (502).
 */
import type { z } from 'zod';
import { badRequest, HttpError } from '../../../core/errors';
import { MAX_JSON_DEPTH, nestsDeeperThan } from '../../../core/http';
import { isStoreUnavailable } from '../../../core/store-errors';
import { parseS3Url, type S3Location } from '../domain/s3-url';
import {
  DEFAULT_ENCODING_SETTINGS,
  DEFAULT_PIPELINE,
  describeIssue,
  type EncodingSettings,
  encodingSettingsSchema,
  type PipelineSettings,
  pipelineSchema,
} from '../domain/settings';
import type { GenerationStore } from '../ports/generation-store';
import { ObjectAccessDeniedError, ObjectNotFoundError, ObjectTooLargeError } from '../ports/object-store';

export interface SettingsCacheDeps {
  fetchText(loc: S3Location): Promise<string>;
  generations: GenerationStore;
  now(): number;
  /** How long an instance trusts its view of the generation. */
  checkEveryMs: number;
}

type Field = 'encodingSettingsUrl' | 'pipelineUrl';

export class SettingsCache {
  private readonly entries = new Map<string, Promise<unknown>>();
  private generation: number | undefined;
  private checkedAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly deps: SettingsCacheDeps) {}

  encoding(url: string | undefined): Promise<EncodingSettings> {
    if (url === undefined) return Promise.resolve(DEFAULT_ENCODING_SETTINGS);
    return this.load(url, 'encodingSettingsUrl', encodingSettingsSchema);
  }

  pipeline(url: string | undefined): Promise<PipelineSettings> {
    if (url === undefined) return Promise.resolve(DEFAULT_PIPELINE);
    return this.load(url, 'pipelineUrl', pipelineSchema);
  }

  /** Clears every instance's cache (this one at once, the others within `checkEveryMs`). */
  async clear(): Promise<number> {
    const generation = await this.deps.generations.bump();
    this.entries.clear();
    this.generation = generation;
    this.checkedAt = this.deps.now();
    return generation;
  }

  /** Number of cached documents (for tests and the cache endpoint's answer). */
  get size(): number {
    return this.entries.size;
  }

  private async checkGeneration(): Promise<void> {
    const now = this.deps.now();
    if (now - this.checkedAt < this.deps.checkEveryMs) return;
    const generation = await this.deps.generations.current();
    if (generation !== this.generation) this.entries.clear();
    this.generation = generation;
    this.checkedAt = now;
  }

  private async load<S extends z.ZodTypeAny>(url: string, field: Field, schema: S): Promise<z.infer<S>> {
    await this.checkGeneration();
    const key = `${field} ${url}`;
    let entry = this.entries.get(key);
    if (!entry) {
      entry = this.fetchAndParse(url, field, schema);
      this.entries.set(key, entry);
      entry.catch(() => this.entries.delete(key));
    }
    return entry as Promise<z.infer<S>>;
  }

  private async fetchAndParse<S extends z.ZodTypeAny>(
    url: string,
    field: Field,
    schema: S,
  ): Promise<z.infer<S>> {
    const loc = parseS3Url(url);
    if (!loc) throw badRequest(`${field}: must be an s3://bucket/key URL`, field);
    let text: string;
    try {
      text = await this.deps.fetchText(loc);
    } catch (err) {
      if (err instanceof ObjectNotFoundError) throw badRequest(`${field}: no document at ${url}`, field);
      if (err instanceof ObjectAccessDeniedError)
        throw badRequest(`${field}: access denied to ${url}`, field);
      if (err instanceof ObjectTooLargeError) throw badRequest(`${field}: ${err.message}`, field);
      // S3 timing out, throttling or failing on its side: the edge answers 503 with Retry-After.
      if (isStoreUnavailable(err)) throw err;
      throw new HttpError(
        502,
        'settings_unavailable',
        `${field}: cannot load ${url}: ${(err as Error).message}`,
      );
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH))
      throw badRequest(`${field}: ${url} nests deeper than ${MAX_JSON_DEPTH} levels`, field);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw badRequest(`${field}: ${url} is not JSON`, field);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw badRequest(`${field}: ${url}: ${describeIssue(parsed.error)}`, field);
    return parsed.data;
  }
}
