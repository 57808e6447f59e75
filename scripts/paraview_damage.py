# An exported run (fracture-sandbox --export DIR) in ParaView: its elements at the last frame as spheres scaled by
# their radius, coloured by damage, seen from wall_impact's camera; saved as a PNG. Needs Debian's paraview and
# python3-paraview; without a display run it under Xvfb:
#   xvfb-run -a pvbatch scripts/paraview_damage.py DIR/elements.pvd shot.png
import sys
from paraview.simple import *
reader = PVDReader(FileName=sys.argv[1])
scene = GetAnimationScene()
scene.UpdateAnimationUsingDataTimeSteps()
scene.AnimationTime = reader.TimestepValues[-1]
view = CreateView('RenderView')
view.ViewSize = [1280, 720]
view.UseColorPaletteForBackground = 0
view.Background = [0.97, 0.97, 0.97]
view.OrientationAxesVisibility = 0
display = Show(reader, view)
display.SetRepresentationType('Point Gaussian')
display.ShaderPreset = 'Sphere'
display.ScaleByArray = 1
display.SetScaleArray = ['POINTS', 'radius']
display.ScaleTransferFunction.Points = [0.0, 0.0, 0.5, 0.0, 1.0, 1.0, 0.5, 0.0]
display.GaussianRadius = 1.0
ColorBy(display, ('POINTS', 'damage'))
lut = GetColorTransferFunction('damage')
lut.ApplyPreset('Turbo', True)
lut.RescaleTransferFunction(0.0, 1.0)
display.SetScalarBarVisibility(view, True)
bar = GetScalarBar(lut, view)
bar.Title = 'damage'
bar.ComponentTitle = ''
bar.TitleColor = [0.1, 0.1, 0.1]
bar.LabelColor = [0.1, 0.1, 0.1]
Render(view)  # the first render places the camera around the data; then ours
view.CameraPosition = [0.45, 0.25, 0.45]
view.CameraFocalPoint = [0.0, 0.1, 0.0]
view.CameraViewUp = [0.0, 1.0, 0.0]
view.CameraViewAngle = 45
text = Text(Text=sys.argv[1].split('/')[-2] + '/elements.pvd in ParaView: last frame, coloured by damage')
td = Show(text, view)
td.FontSize = 14
td.Color = [0.1, 0.1, 0.1]
td.WindowLocation = 'Upper Left Corner'
Render(view)
SaveScreenshot(sys.argv[2], view, ImageResolution=[1280, 720])
