import { StarIcon } from './icons';

/** Five stars filled to `rating` (fractions shown as a partly filled star). */
export function Stars({ rating, className = 'h-4 w-4' }: { rating: number; className?: string }) {
  return (
    <span className="inline-flex items-center gap-0.5" aria-hidden="true">
      {[0, 1, 2, 3, 4].map((index) => {
        const fill = Math.max(0, Math.min(1, rating - index));
        return (
          <span key={index} className="relative inline-block">
            <StarIcon className={`${className} text-white/20`} />
            <span className="absolute inset-0 overflow-hidden" style={{ width: `${fill * 100}%` }}>
              <StarIcon className={`${className} text-yellow-400`} />
            </span>
          </span>
        );
      })}
    </span>
  );
}
