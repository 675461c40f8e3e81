export { Root as Collapsible, Trigger as CollapsibleTrigger, Content as CollapsibleContent } from '@radix-ui/react-collapsible';
