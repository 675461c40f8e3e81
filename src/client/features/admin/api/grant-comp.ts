import { postMemberAction, useMemberAction } from './member-action';

export const grantComp = ({ memberId, until }: { memberId: string; until: string }) => postMemberAction(memberId, 'comp', { until });

export const useGrantComp = () => useMemberAction(grantComp);
