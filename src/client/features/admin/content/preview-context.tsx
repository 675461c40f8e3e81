import { createContext, useContext, type ReactNode } from 'react';
import type { ContentPreview } from '@shared/content-studio';

/**
 * How the console shows a draft: with the member area's own components, which the app shell hands
 * in (features never import each other; they meet in app/).
 */
export type ContentPreviewRenderer = (preview: ContentPreview) => ReactNode;

const Renderer = createContext<ContentPreviewRenderer | null>(null);

export function ContentPreviewProvider({ render, children }: { render: ContentPreviewRenderer | undefined; children: ReactNode }) {
  return <Renderer.Provider value={render ?? null}>{children}</Renderer.Provider>;
}

export const useContentPreviewRenderer = () => useContext(Renderer);
