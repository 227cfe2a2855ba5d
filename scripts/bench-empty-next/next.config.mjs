/** The empty app's build: as plain as Next allows. */
const config = { poweredByHeader: false };

export default config;
