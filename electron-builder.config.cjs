// electron-builder: desktop packages for Linux, macOS and Windows from out/ (npm run dist).
module.exports = {
  appId: 'dev.agentlab.workbench',
  productName: 'Agent Lab',
  directories: { output: 'dist', buildResources: 'resources/build' },
  files: ['out/**', 'package.json', '!**/*.map'],
  extraResources: [{ from: 'resources', to: 'resources', filter: ['sites/**', 'models/**', 'corpus/**', 'trainers/**'] }],
  asar: true,
  linux: { target: ['AppImage', 'deb'], category: 'Development' },
  mac: { target: ['dmg', 'zip'], category: 'public.app-category.developer-tools', hardenedRuntime: true },
  win: { target: ['nsis'] },
};
