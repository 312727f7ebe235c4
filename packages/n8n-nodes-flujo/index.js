// n8n finds the nodes and the credential through package.json's "n8n" section; nothing is loaded from here.
module.exports = {};
