// The extensions the migrations create (0023: pg_trgm, for the member search). PGlite ships each
// as a bundle an instance must be given when it is created, so every PGlite the shop, its tests
// and its benches open takes these; one without them cannot run the migrations.
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

export const PGLITE_EXTENSIONS = { pg_trgm };
