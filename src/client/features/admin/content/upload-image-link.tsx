// The console's "Upload image": picks one image, sends it to the content library and says how it
// went. The content page and the editor both offer it; what an upload leads to (the sentence said,
// the image placed in a text) is theirs.
import type { ContentImageInfo } from '@shared/content-studio';
import { ApiRequestError } from '@client/lib/api/api-client';
import { cn } from '@client/lib/cn';
import { useUploadImage } from './content-api';

/** A line said under the form: how the last action went. */
export type Notice = { ok: boolean; text: string };

/** The file types the server takes (content-studio.ts checks the bytes). */
const ACCEPTED = '.svg,.png,.jpg,.jpeg,.webp,.gif';

export function UploadImageLink({ className, onUploaded, onNotice }: { className?: string; onUploaded: (image: ContentImageInfo) => string; onNotice: (notice: Notice | null) => void }) {
  const upload = useUploadImage();
  return (
    <label className={cn('cursor-pointer text-sm font-medium text-primary', className)}>
      Upload image
      <input
        type="file"
        accept={ACCEPTED}
        className="sr-only"
        onChange={async (event) => {
          const file = event.target.files?.[0];
          // the same file picked again is a new upload
          event.target.value = '';
          if (!file) return;
          onNotice(null);
          try {
            onNotice({ ok: true, text: onUploaded(await upload.mutateAsync(file)) });
          } catch (error) {
            onNotice({ ok: false, text: error instanceof ApiRequestError ? error.message : 'The image could not be uploaded.' });
          }
        }}
      />
    </label>
  );
}
