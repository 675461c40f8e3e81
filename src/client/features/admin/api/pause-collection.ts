import type { PausedAccess } from '@shared/support-actions';
import { postMemberAction, useMemberAction } from './member-action';

export const pauseCollection = ({ memberId, access }: { memberId: string; access: PausedAccess }) => postMemberAction(memberId, 'pause-collection', { access });

export const usePauseCollection = () => useMemberAction(pauseCollection);
