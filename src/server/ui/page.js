// @ts-check
// The page's own elements (index.html) by id, typed: the one place that says which id is which element.

/**
 * @typedef {object} PageElements
 * @property {HTMLElement} version
 * @property {HTMLElement} banner
 * @property {HTMLElement} workbench
 * @property {HTMLElement} setup
 * @property {HTMLFormElement} form
 * @property {HTMLSelectElement} agent
 * @property {HTMLInputElement} model
 * @property {HTMLDataListElement} models
 * @property {HTMLSelectElement} effort
 * @property {HTMLSelectElement} mode
 * @property {HTMLElement} agent-hint
 * @property {HTMLInputElement} cwd
 * @property {HTMLTextAreaElement} prompt
 * @property {HTMLElement} skills-field
 * @property {HTMLSelectElement} skills
 * @property {HTMLInputElement} images
 * @property {HTMLInputElement} ask
 * @property {HTMLElement} compare-agents
 * @property {HTMLInputElement} repeat
 * @property {HTMLElement} continue-row
 * @property {HTMLInputElement} continue
 * @property {HTMLElement} session
 * @property {HTMLButtonElement} run
 * @property {HTMLButtonElement} cancel
 * @property {HTMLElement} run-status
 * @property {HTMLElement} alert
 * @property {HTMLElement} output
 * @property {HTMLElement} runs-empty
 * @property {HTMLUListElement} runs
 * @property {HTMLElement} runs-count
 * @property {HTMLButtonElement} runs-more
 * @property {HTMLFormElement} history-filters
 * @property {HTMLInputElement} history-q
 * @property {HTMLSelectElement} history-agent
 * @property {HTMLSelectElement} history-status
 * @property {HTMLElement} tabs
 * @property {HTMLButtonElement} tab-work
 * @property {HTMLButtonElement} tab-history
 * @property {HTMLElement} work
 * @property {HTMLElement} history
 * @property {HTMLElement} fresh-link
 * @property {HTMLSelectElement | null} target where the run goes: added by form.js when the server has named targets
 */

/**
 * The page's element with this id.
 * @template {keyof PageElements} K
 * @param {K} id
 * @returns {PageElements[K]}
 */
export const $ = (id) => /** @type {PageElements[K]} */ (document.getElementById(id));
