import { boot } from './ui/boot'
import './ui/app.css'

const root = document.getElementById('root')
// A frame that runs the scripts only for their code cache (src/ui/code-cache.ts) has no root.
if (root) void boot(root, window.location)
