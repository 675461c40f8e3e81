export { DiscordPage } from './discord-page';
