import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrations } from '../../../migrations/index.js';

/**
 * A PGlite data directory already migrated, made by `npm run build` (scripts/pglite-template.ts)
 * beside the compiled service: a first start on a new data directory copies it instead of making
 * the database and running every migration, which took PGlite's WebAssembly memory to twice what
 * the service then runs in (docs/decisions.md D267).
 */
export const TEMPLATE_DIR = fileURLToPath(new URL('../../../pglite-template', import.meta.url));
/** What a template holds, beside it: the migrations it ran, so a template of another build is never used. */
export const manifestOf = (templateDir: string) => `${templateDir}.json`;

export interface TemplateManifest {
  migrations: string[];
}

/** The names of the migrations this build runs, in order. */
export function listedMigrations(): string[] {
  return Object.keys(migrations);
}

/** The template's directory when there is one and it ran exactly this build's migrations. */
export function migratedTemplate(templateDir = TEMPLATE_DIR): string | undefined {
  const manifestFile = manifestOf(templateDir);
  if (!existsSync(manifestFile) || !existsSync(`${templateDir}/PG_VERSION`)) return undefined;
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Partial<TemplateManifest>;
    const listed = listedMigrations();
    const held = manifest.migrations ?? [];
    return held.length === listed.length && held.every((name, i) => name === listed[i])
      ? templateDir
      : undefined;
  } catch {
    return undefined;
  }
}
