import { postMemberAction, useMemberAction } from './member-action';

export const revokeAccess = (memberId: string) => postMemberAction(memberId, 'revoke');

export const useRevokeAccess = () => useMemberAction(revokeAccess);
