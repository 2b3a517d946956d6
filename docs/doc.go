// Package docs holds Gamemill's documentation (the Markdown pages beside
// this file) and the tests that keep it in step with the tree: every page
// indexed, every example and package named, every relative link alive,
// the README short, and no page, comment or flag that tells the history of
// the work instead of the product.
package docs
