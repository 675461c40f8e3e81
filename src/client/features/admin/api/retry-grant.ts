import { postMemberAction, useMemberAction } from './member-action';

export const retryGrant = (memberId: string) => postMemberAction(memberId, 'retry-grant');

export const useRetryGrant = () => useMemberAction(retryGrant);
