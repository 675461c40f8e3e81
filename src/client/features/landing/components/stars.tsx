// Five 24-unit stars, 3 units apart (a 16 px star with a 2 px gap at the page's size), as one path.
const STAR_STEP = 27;
const STARS_WIDTH = 5 * 24 + 4 * 3;
const STARS_PATH = [0, 1, 2, 3, 4].map((index) => `M${12 + index * STAR_STEP} 2.5l2.9 6.1 6.6.7-4.9 4.5 1.4 6.5L${12 + index * STAR_STEP} 17l-6 3.3 1.4-6.5-4.9-4.5 6.6-.7z`).join('');

/**
 * Five stars filled to `rating` (fractions shown as a partly filled star). One SVG of four
 * elements, not five icons of six: the page shows seven rows of them, and each element is work
 * for the browser's style and layout as the page loads.
 */
export function Stars({ rating }: { rating: number }) {
  const full = Math.max(0, Math.min(5, Math.floor(rating)));
  const filledWidth = full * STAR_STEP + Math.max(0, Math.min(1, rating - full)) * 24;
  return (
    <svg viewBox={`0 0 ${STARS_WIDTH} 24`} className="h-4 w-[88px]" aria-hidden="true" focusable="false">
      <path d={STARS_PATH} fill="currentColor" className="text-white/20" />
      {/* a nested svg clips what overflows its width: the yellow stars stop at the rating */}
      <svg width={filledWidth} height={24}>
        <path d={STARS_PATH} fill="currentColor" className="text-yellow-400" />
      </svg>
    </svg>
  );
}
