export { ContentPage } from './content-page';
export { ContentEditorPage } from './content-editor-page';
export { ContentPreviewProvider, type ContentPreviewRenderer } from './preview-context';
