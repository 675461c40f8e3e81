import { useEffect, useState, type RefObject } from 'react';

/**
 * Whether the element is in the viewport now (true where IntersectionObserver is missing). For
 * motion nobody can see: a carousel off screen need not wake the main thread.
 */
export function useOnScreen(ref: RefObject<Element | null>): boolean {
  const [onScreen, setOnScreen] = useState(typeof IntersectionObserver === 'undefined');
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => setOnScreen(entries.some((entry) => entry.isIntersecting)));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return onScreen;
}
