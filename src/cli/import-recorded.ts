// What a registry's catalog.json records from the import that wrote it (overlays, `--title`/`--description`), for
// `import --check` to re-apply, and the lines a re-import prints when they changed. Reads files; prints nothing.
import { existsSync, readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { AppError } from '../errors.js';
import type { CatalogMeta, OverlayRef } from '../types.js';

/** A recorded overlay path (relative to the catalog folder) as a path relative to the working directory. */
function shownPath(catalogDir: string, ref: OverlayRef): string {
  return relative(process.cwd(), resolve(catalogDir, ref.path)).split(sep).join('/') || '.';
}

/** The overlays a registry's catalog.json records ([] when none); undefined when there is no readable catalog.json. */
export function overlaysOf(metaPath: string): OverlayRef[] | undefined {
  if (!existsSync(metaPath)) return undefined;
  try {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8')) as Partial<CatalogMeta>;
    return Array.isArray(meta.overlays) ? meta.overlays.filter((r): r is OverlayRef => typeof r?.path === 'string' && typeof r?.sha256 === 'string') : [];
  } catch {
    return undefined; // an unreadable catalog.json: nothing to compare (and --check reports it stale)
  }
}

/**
 * The overlays `import --check` re-applies when no --overlay is given: those the registry's catalog.json records,
 * read from where it says (relative to the catalog folder). A recorded file that is gone is an error naming it.
 */
export function recordedOverlays(catalogDir: string): Array<{ file: string; label: string }> {
  const metaPath = resolve(catalogDir, 'catalog.json');
  return (overlaysOf(metaPath) ?? []).map((ref) => {
    const file = resolve(catalogDir, ref.path);
    if (!existsSync(file)) {
      throw new AppError(
        'CONFIG_INVALID',
        `import: ${relative(process.cwd(), metaPath)} records the overlay ${ref.path} (${shownPath(catalogDir, ref)}), which is missing; restore it, or pass the overlays to use with --overlay`,
      );
    }
    return { file, label: ref.path };
  });
}

/** The `--title` / `--description` a registry's catalog.json records ({} when none or unreadable). */
export function recordedDisplay(metaPath: string): NonNullable<CatalogMeta['importArgs']> {
  const meta = readMeta(metaPath);
  const args = meta?.importArgs;
  const out: NonNullable<CatalogMeta['importArgs']> = {};
  if (typeof args?.title === 'string') out.title = args.title;
  if (typeof args?.description === 'string') out.description = args.description;
  return out;
}

export function readMeta(metaPath: string): Partial<CatalogMeta> | undefined {
  if (!existsSync(metaPath)) return undefined;
  try {
    return JSON.parse(readFileSync(metaPath, 'utf8')) as Partial<CatalogMeta>;
  } catch {
    return undefined;
  }
}

/** One line per display name / description difference between the previous import and this one. */
export function displayLines(before: Partial<CatalogMeta> | undefined, after: CatalogMeta): string[] {
  if (before === undefined) return [];
  const lines: string[] = [];
  const short = (s: string | undefined): string => JSON.stringify((s ?? '').length > 80 ? `${(s ?? '').slice(0, 79)}…` : (s ?? ''));
  for (const key of ['title', 'description'] as const) {
    if (before[key] === after[key]) continue;
    const dropped = before.importArgs?.[key] !== undefined && after.importArgs?.[key] === undefined;
    lines.push(
      `catalog ${key === 'title' ? 'display name' : 'description'} changed: ${short(before[key])} -> ${short(after[key])}` +
        (dropped ? ` (the previous import set it with --${key}; pass --${key} to keep it)` : ''),
    );
  }
  return lines;
}

/** One line per overlay difference between the previous import and this one. */
export function overlayLines(catalogDir: string, change: { before: OverlayRef[]; after: OverlayRef[] }): string[] {
  const lines: string[] = [];
  for (const ref of change.before) {
    const now = change.after.find((a) => a.path === ref.path);
    if (!now) lines.push(`overlay no longer applied: ${shownPath(catalogDir, ref)} (the previous import used it; pass --overlay to keep it)`);
    else if (now.sha256 !== ref.sha256) lines.push(`overlay changed since the previous import: ${shownPath(catalogDir, ref)}`);
  }
  for (const ref of change.after) if (!change.before.some((b) => b.path === ref.path)) lines.push(`overlay newly applied: ${shownPath(catalogDir, ref)}`);
  if (lines.length === 0) lines.push('overlays: the same files, applied in a different order');
  return lines;
}
