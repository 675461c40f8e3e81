import { postMemberAction, useMemberAction } from './member-action';

export const resyncMember = (memberId: string) => postMemberAction(memberId, 'resync');

export const useResyncMember = () => useMemberAction(resyncMember);
