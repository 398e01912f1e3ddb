/** Load the page again (the only `location.reload` outside the composition roots). */
export function reloadPage(): void {
  window.location.reload();
}
