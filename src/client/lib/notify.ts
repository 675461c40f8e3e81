import { toast } from 'sonner';

export type Notice = { title: string; description?: string };

export const notifyError = ({ title, description }: Notice) => toast.error(title, { description });
export const notifySuccess = ({ title, description }: Notice) => toast.success(title, { description });
