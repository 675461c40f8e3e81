import { postMemberAction, useMemberAction } from './member-action';

export const resumeCollection = (memberId: string) => postMemberAction(memberId, 'resume-collection');

export const useResumeCollection = () => useMemberAction(resumeCollection);
