import { mkdir, readFile, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { contentImages } from '../../db/schema';

// Where the bytes of the studio's images live. The facts (name, type, size) are always rows of
// content_images; the bytes go through this port: the database (the default, nothing to set up),
// a folder, or an S3-compatible bucket (s3-content-storage.ts). Names are checked before they
// get here (IMAGE_NAME), so a name is never a path.

export type ContentStorage = {
  kind: 'database' | 'disk' | 's3';
  /** Stores the bytes under `name`, replacing any. The database kind needs the image's row first. */
  put: (name: string, bytes: Uint8Array, contentType: string) => Promise<void>;
  /** The bytes, or undefined when nothing is stored under `name`. */
  get: (name: string) => Promise<Uint8Array | undefined>;
};

export function createDatabaseContentStorage(db: Db): ContentStorage {
  return {
    kind: 'database',
    put: async (name, bytes) => {
      await db.update(contentImages).set({ bytes: Buffer.from(bytes) }).where(eq(contentImages.name, name));
    },
    get: async (name) => {
      const [row] = await db.select({ bytes: contentImages.bytes }).from(contentImages).where(eq(contentImages.name, name));
      return row?.bytes ? new Uint8Array(row.bytes) : undefined;
    },
  };
}

export function createDiskContentStorage(dir: string): ContentStorage {
  return {
    kind: 'disk',
    put: async (name, bytes) => {
      await mkdir(dir, { recursive: true });
      // written beside, then renamed: a reader never sees half a file
      const temporary = join(dir, `.${name}.${process.pid}.tmp`);
      await writeFile(temporary, bytes);
      await rename(temporary, join(dir, name));
    },
    get: async (name) => {
      try {
        return new Uint8Array(await readFile(join(dir, name)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
  };
}
