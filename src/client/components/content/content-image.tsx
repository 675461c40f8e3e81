import type { ImageSize } from '@shared/content';
import { cn } from '@client/lib/cn';

type ContentImageProps = {
  src: string;
  alt: string;
  /** The image's intrinsic size from the content API (`images[src]`). */
  size: ImageSize | undefined;
  className?: string;
  /** For a picture at the top of the page, which should not wait for the lazy-loading threshold. */
  eager?: boolean;
};

/**
 * A guide or strategy picture that holds its room before it loads: width and height give the
 * browser its aspect ratio, and `h-auto max-w-full` lets CSS scale it. Without them the image
 * takes no room until it arrives and everything below jumps (layout shift, and a Table of
 * Contents jump stopping short of its section).
 */
export function ContentImage({ src, alt, size, className, eager = false }: ContentImageProps) {
  return (
    <img
      src={src}
      alt={alt}
      width={size?.width}
      height={size?.height}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={cn('h-auto max-w-full', className)}
    />
  );
}
