/**
 * The page's entry (index.html): the embed's page for an embed address, the lab's otherwise. Each
 * is a chunk of its own, so an iframe `?embed…` loads the player alone and the lab loads none of
 * the embed-only code; any share link still becomes an embed by adding `?embed`, from the same
 * index.html (one file to deploy on any static host).
 */
import { isEmbed } from './ui/embed/embedAddress';

if (isEmbed(window.location.search)) void import('./embedMain');
else void import('./main');
