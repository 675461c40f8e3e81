import { Download } from 'lucide-react';
import { CSV_EXPORTS, csvExportPath, type CsvExport } from '@shared/csv';

/**
 * A link that downloads one of the console's CSV files: the browser fetches it with the
 * operator's session and saves it; the server streams it and records the download in the audit log.
 */
export function CsvDownload({ kind }: { kind: CsvExport }) {
  return (
    <a
      href={csvExportPath(kind)}
      download={CSV_EXPORTS[kind].file}
      className="inline-flex h-9 items-center gap-2 rounded-lg border border-border px-3 text-sm text-white hover:bg-white/5"
    >
      <Download aria-hidden className="size-4" />
      Download {CSV_EXPORTS[kind].label} (CSV)
    </a>
  );
}
